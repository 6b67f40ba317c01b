import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The listening sockets of an X display the test process sets up for an Xwayland a
/// compositor starts (KWin's `--xwayland-display :N --xwayland-fd …`): the socket in
/// `/tmp/.X11-unix`, its abstract twin, and the lock file `/tmp/.X<n>-lock`, on a number of
/// this test process's own range (as ``XvfbServer`` picks).
///
/// A compositor left to choose takes the lowest free number (`:0`, `:2`), where an X client of
/// an earlier server of that number (a broker another run left reconnecting) joins the new
/// server and its selections. A number from this process's range is one no such client waits
/// for.
struct XDisplaySockets: Sendable {
  /// The display number.
  let number: Int
  /// The socket at `/tmp/.X11-unix/X<n>`.
  let pathSocket: Int32
  /// The abstract socket `@/tmp/.X11-unix/X<n>` (which Xlib tries first).
  let abstractSocket: Int32

  /// The display name, such as `:57`.
  var name: String { ":\(number)" }

  /// The sockets of the first free number in this process's range.
  ///
  /// - Throws: ``DesktopSessionError`` when no number is free.
  static func make() throws -> XDisplaySockets {
    try? FileManager.default.createDirectory(
      atPath: "/tmp/.X11-unix", withIntermediateDirectories: true,
      attributes: [.posixPermissions: 0o1777])
    let base = 300 + Int(getpid() % 300)
    for number in (0..<40).map({ base + $0 }) {
      if let sockets = claim(number) { return sockets }
    }
    throw DesktopSessionError(message: "no free X display number from :\(base) on")
  }

  /// The sockets of `number`, or `nil` when another server has it (its lock file, or either
  /// socket's name, is taken).
  private static func claim(_ number: Int) -> XDisplaySockets? {
    let lock = "/tmp/.X\(number)-lock"
    // The lock file's convention: the owner's pid in 10 characters and a newline, made with
    // O_EXCL so that two servers never both take it.
    let descriptor = open(lock, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o444)
    guard descriptor >= 0 else { return nil }
    let text = Array(String(format: "%10d\n", getpid()).utf8)
    let written = write(descriptor, text, text.count)
    close(descriptor)
    let path = "/tmp/.X11-unix/X\(number)"
    guard written == text.count, !FileManager.default.fileExists(atPath: path),
      let pathSocket = listening(on: path, abstract: false)
    else {
      unlink(lock)
      return nil
    }
    guard let abstractSocket = listening(on: path, abstract: true) else {
      close(pathSocket)
      unlink(path)
      unlink(lock)
      return nil
    }
    return XDisplaySockets(number: number, pathSocket: pathSocket, abstractSocket: abstractSocket)
  }

  /// A listening stream socket bound to `name`, in the file system or the abstract namespace
  /// (whose names are exactly as long as the address says: no terminating zero).
  private static func listening(on name: String, abstract: Bool) -> Int32? {
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { return nil }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = (abstract ? [0] : []) + Array(name.utf8)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
    let length =
      abstract
      ? MemoryLayout<sa_family_t>.size + bytes.count : MemoryLayout<sockaddr_un>.size
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(length))
      }
    }
    guard bound == 0, abstract || chmod(name, 0o777) == 0, listen(descriptor, 16) == 0 else {
      close(descriptor)
      return nil
    }
    return descriptor
  }

  /// Closes this process's copies of the sockets (the compositor has its own).
  func closeDescriptors() {
    close(pathSocket)
    close(abstractSocket)
  }

  /// Removes the socket's name and the lock file, once the server has ended.
  func remove() {
    unlink("/tmp/.X11-unix/X\(number)")
    unlink("/tmp/.X\(number)-lock")
  }

  /// Removes the lock file and socket of `display` (such as `:0`) when the process the lock
  /// file names no longer runs: what an X server killed before it could clean up leaves, and
  /// what the next server of that number would take over anyway.
  static func removeIfStale(_ display: String) {
    guard display.hasPrefix(":"), let number = Int(display.dropFirst()) else { return }
    let lock = "/tmp/.X\(number)-lock"
    guard let text = try? String(contentsOfFile: lock, encoding: .utf8),
      let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)),
      kill(pid, 0) != 0, errno == ESRCH
    else { return }
    unlink("/tmp/.X11-unix/X\(number)")
    unlink(lock)
  }
}
