import FoundationEssentials
import Dispatch
import Synchronization
import Pasteboard
import UniformTypeIdentifiers
import X11Selections

#if canImport(Glibc)
  import Glibc
#endif

/// Serves a copy on an X selection from a background process when no broker runs, as xclip
/// does — but without keeping the caller's terminal or `$(…)` waiting.
///
/// The copying command starts this same executable again, detached (`setsid`, standard
/// output and error on `/dev/null`), hands it the bytes through a pipe — never a file, so a
/// `--sensitive` copy never touches the disk — and returns as soon as the child reports that
/// it owns the selection. The child serves until another client takes the selection.
public enum DetachedSelectionServer {
  /// The argument that makes an executable act as the server.
  public static let flag = "--x-serve-selection"

  /// Starts the server for `representations` on `selection` and waits until it owns it.
  ///
  /// - Throws: ``CommandFailure`` (status 3 without a display, 4 when the child does not
  ///   report in time).
  public static func spawn(
    selection: Selection, display: String?, representations: [(UTType, Data)], concealed: Bool
  ) throws {
    var arguments = [executablePath(), flag, selection.rawValue, display ?? ""]
    arguments.append(concealed ? "concealed" : "plain")
    arguments += representations.map { "\($0.0.identifier)=\($0.1.count)" }
    var data: [Int32] = [0, 0]
    var status: [Int32] = [0, 0]
    guard pipe(&data) == 0, pipe(&status) == 0 else {
      throw CommandFailure("cannot start the selection server: \(String(cString: strerror(errno)))", status: .io)
    }
    closeOnExec()
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, data[0], 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, status[1], 3)
    // The pipes' own numbers may be 3 or lower, already replaced by the dup2s above.
    for descriptor in [data[0], data[1], status[0], status[1]] where descriptor > 3 {
      posix_spawn_file_actions_addclose(&actions, descriptor)
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // POSIX_SPAWN_SETSID (0x80 in glibc; the header hides it behind _GNU_SOURCE): the server
    // gets a session of its own, with no controlling terminal to hang up on it.
    posix_spawnattr_setflags(&attributes, 0x80)
    var pid: pid_t = 0
    let cArguments = arguments.map { strdup($0) } + [nil]
    defer { cArguments.forEach { free($0) } }
    let spawned = posix_spawn(&pid, arguments[0], &actions, &attributes, cArguments, environ)
    close(data[0])
    close(status[1])
    guard spawned == 0 else {
      close(data[1])
      close(status[0])
      throw CommandFailure("cannot start the selection server: \(String(cString: strerror(spawned)))", status: .io)
    }
    signal(SIGPIPE, SIG_IGN)
    for (_, bytes) in representations {
      bytes.withUnsafeBytes { raw in
        var offset = 0
        while offset < raw.count {
          let written = write(data[1], raw.baseAddress! + offset, raw.count - offset)
          if written < 0 {
            if errno == EINTR { continue }
            break
          }
          offset += written
        }
      }
    }
    close(data[1])
    let answer = readStatus(status[0], timeoutMilliseconds: 5000)
    close(status[0])
    switch answer {
    case "ready": return
    case nil: throw CommandFailure("the selection server did not start in time", status: .timeout)
    case let message?:
      throw CommandFailure(message, status: message.contains("display") ? .noDisplayNoBroker : .io)
    }
  }

  /// Marks every descriptor above standard error close-on-exec, so the long-lived server
  /// inherits none of the caller's: a terminal's or a test harness's descriptor held by the
  /// server would make whoever waits on it wait until the selection changes hands.
  private static func closeOnExec() {
    for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
      guard let descriptor = Int32(name), descriptor > 2 else { continue }
      let flags = fcntl(descriptor, F_GETFD)
      if flags >= 0 { _ = fcntl(descriptor, F_SETFD, flags | FD_CLOEXEC) }
    }
  }

  private static func readStatus(_ descriptor: Int32, timeoutMilliseconds: Int32) -> String? {
    var collected = [UInt8]()
    let deadline = ContinuousClock.now + .milliseconds(Int(timeoutMilliseconds))
    while ContinuousClock.now < deadline {
      var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let remaining = deadline - ContinuousClock.now
      let milliseconds = Int32(max(1, remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000))
      guard poll(&poller, 1, milliseconds) > 0 else { continue }
      var buffer = [UInt8](repeating: 0, count: 512)
      let count = read(descriptor, &buffer, buffer.count)
      if count <= 0 { break }
      collected += buffer[..<count]
      if collected.contains(0x0A) { break }
    }
    guard !collected.isEmpty else { return nil }
    return String(decoding: collected, as: UTF8.self).trimmingWhitespace()
  }

  private static func executablePath() -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    return count > 0 ? String(cString: buffer) : CommandLine.arguments[0]
  }

  /// The child's side: reads the bytes from standard input, owns the selection, reports
  /// `ready` on descriptor 3, and serves until another client takes the selection.
  ///
  /// `arguments` are those after ``flag``: selection, display, `concealed|plain`, then
  /// `type=length` for each representation in order.
  public static func serve(_ arguments: [String]) -> Never {
    func report(_ line: String) {
      _ = (line + "\n").utf8CString.withUnsafeBufferPointer { write(3, $0.baseAddress, $0.count - 1) }
    }
    guard arguments.count >= 3 else {
      report("bad server arguments")
      exit(2)
    }
    let selection = Selection(rawValue: arguments[0])
    let display = arguments[1].isEmpty ? nil : arguments[1]
    let concealed = arguments[2] == "concealed"
    var representations: [PasteboardRepresentation] = []
    for spec in arguments.dropFirst(3) {
      guard let equals = spec.lastIndex(of: "="), let length = Int(spec[spec.index(after: equals)...]),
        let type = UTType(String(spec[..<equals])) ?? Optional(UTType(exportedAs: String(spec[..<equals])))
      else { continue }
      representations.append(.data(readExactly(length), type: type))
    }
    if concealed { representations.append(.data(Data("secret".utf8), type: .passwordManagerHint)) }
    let item = PasteboardItem(representations: representations, options: concealed ? .concealed : [])
    let lost = DispatchSemaphore(value: 0)
    do {
      let connection = try X11Display(name: display)
      connection.onConnectionLost { lost.signal() }
      let done = DispatchSemaphore(value: 0)
      let failure = LockedBox<String?>(nil)
      Task {
        do {
          try await connection.own(selection, item: item) { lost.signal() }
        } catch {
          failure.set("\(error)")
        }
        done.signal()
      }
      done.wait()
      if let message = failure.get() {
        report(message)
        exit(4)
      }
      report("ready")
      close(3)
      lost.wait()
      exit(0)
    } catch {
      report("\(error)")
      exit(3)
    }
  }

  private static func readExactly(_ count: Int) -> Data {
    var data = Data(count: count)
    var filled = 0
    data.withUnsafeMutableBytes { raw in
      while filled < count {
        let got = read(0, raw.baseAddress! + filled, count - filled)
        if got <= 0 {
          if got < 0 && errno == EINTR { continue }
          break
        }
        filled += got
      }
    }
    return data.prefix(filled)
  }
}

/// A value shared between a task and the thread waiting for it.
public final class LockedBox<Value: Sendable>: Sendable {
  private let value: Mutex<Value>

  /// Creates a box holding `value`.
  public init(_ value: Value) { self.value = Mutex(value) }

  /// The value.
  public func get() -> Value { value.withLock { $0 } }

  /// Replaces the value.
  public func set(_ newValue: Value) { value.withLock { $0 = newValue } }
}
