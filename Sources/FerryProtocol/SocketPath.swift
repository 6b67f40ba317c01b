#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Where the broker's socket lives, and the checks that keep other users out of it.
///
/// The socket is `$XDG_RUNTIME_DIR/ferry/<name>.sock`; without `XDG_RUNTIME_DIR` it is
/// `/tmp/ferry-<uid>/<name>.sock`. `<name>` comes from `DISPLAY` (`:0` → `display-0`,
/// `host:10.0` → `display-host-10`), else from `WAYLAND_DISPLAY` (`wayland-1` → `wayland-1`,
/// a path by its last component), or is `headless`. `FERRY_SOCKET`, when set, names the
/// socket outright.
///
/// The directory must be a real directory (not a symbolic link) owned by the user, with no
/// permission for group or others (0700); the broker creates it so, and both sides refuse
/// one that is not — in a shared `/tmp`, another user could otherwise plant a directory and
/// a socket of their own and receive what we copy.
///
/// ```swift
/// let location = SocketPath.resolve()
/// try location.prepareDirectory()     // the broker, before binding
/// try location.checkDirectory()       // a client, before connecting
/// ```
public struct SocketPath: Sendable, Hashable, CustomStringConvertible {
  /// The directory holding the socket.
  public var directory: String
  /// The socket's file name.
  public var fileName: String

  /// The longest socket path the kernel accepts (`sun_path` less its terminating zero).
  public static let maximumPathLength = 107

  /// A socket at `directory/fileName`.
  public init(directory: String, fileName: String) {
    self.directory = directory
    self.fileName = fileName
  }

  /// A socket at `path`, whose directory is everything before the last `/`.
  public init(path: String) {
    if let slash = path.lastIndex(of: "/") {
      let parent = String(path[..<slash])
      directory = parent.isEmpty ? "/" : parent
      fileName = String(path[path.index(after: slash)...])
    } else {
      directory = "."
      fileName = path
    }
  }

  /// The socket's path.
  public var path: String {
    directory.hasSuffix("/") ? directory + fileName : directory + "/" + fileName
  }

  /// The socket's path.
  public var description: String { path }

  /// The socket for the environment, following the rules above.
  ///
  /// - Parameters:
  ///   - environment: The variables `FERRY_SOCKET`, `XDG_RUNTIME_DIR` and `DISPLAY`.
  ///   - uid: The user; the process's real user by default.
  public static func resolve(environment: [String: String], uid: uid_t = getuid()) -> SocketPath {
    resolve(uid: uid) { environment[$0] }
  }

  /// The socket for the process's environment (`FERRY_SOCKET`, `XDG_RUNTIME_DIR`, `DISPLAY`)
  /// and `uid`: see ``resolve(environment:uid:)``. Builds no dictionary, which a short
  /// command's start-up would pay for.
  public static func resolve(uid: uid_t = getuid()) -> SocketPath {
    resolve(uid: uid) { name in getenv(name).map { String(cString: $0) } }
  }

  private static func resolve(uid: uid_t, _ variable: (String) -> String?) -> SocketPath {
    if let explicit = variable("FERRY_SOCKET"), !explicit.isEmpty {
      return SocketPath(path: explicit)
    }
    let name =
      socketName(forDisplay: variable("DISPLAY"), wayland: variable("WAYLAND_DISPLAY")) + ".sock"
    if let runtime = variable("XDG_RUNTIME_DIR"), runtime.hasPrefix("/") {
      let base = runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime
      return SocketPath(directory: base + "/ferry", fileName: name)
    }
    return SocketPath(directory: "/tmp/ferry-\(uid)", fileName: name)
  }

  /// The socket's base name for a `DISPLAY` value: `display-<host>-<number>` (the host
  /// left out when empty, the screen number dropped, characters other than letters, digits,
  /// `.`, `_` and `-` replaced by `_`), or `headless` without a display.
  ///
  /// ```swift
  /// SocketPath.socketName(forDisplay: ":0")             // "display-0"
  /// SocketPath.socketName(forDisplay: "localhost:10.0") // "display-localhost-10"
  /// SocketPath.socketName(forDisplay: nil)              // "headless"
  /// ```
  public static func socketName(forDisplay display: String?) -> String {
    socketName(forDisplay: display, wayland: nil)
  }

  /// The socket's base name for `DISPLAY` and `WAYLAND_DISPLAY`: the X display's name when
  /// there is one (under XWayland both are set, and the X name is the one every earlier
  /// Ferry used), else the Wayland display's (`wayland-1`; a path by its last component,
  /// characters other than letters, digits, `.`, `_` and `-` replaced by `_`), else `headless`.
  ///
  /// ```swift
  /// SocketPath.socketName(forDisplay: nil, wayland: "wayland-1")   // "wayland-1"
  /// ```
  public static func socketName(forDisplay display: String?, wayland: String?) -> String {
    guard let display, !display.isEmpty else {
      guard let wayland, !wayland.isEmpty else { return "headless" }
      let last = wayland.split(separator: "/").last.map(String.init) ?? wayland
      var name = last.hasPrefix("wayland") ? "" : "wayland-"
      for character in last {
        let safe =
          character.isASCII
          && (character.isLetter || character.isNumber || "._-".contains(character))
        name.append(safe ? character : "_")
      }
      return name
    }
    var host = Substring(display)
    var number = Substring("")
    if let colon = display.lastIndex(of: ":") {
      host = display[..<colon]
      number = display[display.index(after: colon)...]
      if let dot = number.firstIndex(of: ".") { number = number[..<dot] }
    }
    // Appended character by character: `joined` over an array needs a generic witness
    // looked up at run time, a scan of every conformance record on each start-up.
    var name = "display"
    for part in [host, number] where !part.isEmpty {
      name.append("-")
      for character in part {
        let safe =
          character.isASCII
          && (character.isLetter || character.isNumber || "._-".contains(character))
        name.append(safe ? character : "_")
      }
    }
    return name
  }

  /// Creates the directory (mode 0700) when it is missing, then checks it as
  /// ``checkDirectory(ownerUID:)`` does. The parent must exist.
  ///
  /// - Throws: ``SocketPathError``.
  public func prepareDirectory(ownerUID: uid_t = getuid()) throws(SocketPathError) {
    if path.utf8.count > Self.maximumPathLength {
      throw .pathTooLong(path, limit: Self.maximumPathLength)
    }
    if mkdir(directory, 0o700) != 0 {
      let error = errno
      if error != EEXIST { throw .cannotCreate(directory, reason: Self.describe(error)) }
    } else {
      // mkdir's mode passes through the umask, which may only have removed bits; be exact.
      _ = chmod(directory, 0o700)
    }
    try Self.checkDirectory(directory, ownerUID: ownerUID)
  }

  /// Checks that the directory exists, is a directory and not a link, belongs to
  /// `ownerUID` and grants nothing to group or others.
  ///
  /// - Throws: ``SocketPathError``.
  public func checkDirectory(ownerUID: uid_t = getuid()) throws(SocketPathError) {
    if path.utf8.count > Self.maximumPathLength {
      throw .pathTooLong(path, limit: Self.maximumPathLength)
    }
    try Self.checkDirectory(directory, ownerUID: ownerUID)
  }

  /// The checks of ``checkDirectory(ownerUID:)`` on any directory.
  ///
  /// - Throws: ``SocketPathError``.
  public static func checkDirectory(_ directory: String, ownerUID: uid_t) throws(SocketPathError) {
    var info = stat()
    guard lstat(directory, &info) == 0 else {
      let error = errno
      if error == ENOENT { throw .missing(directory) }
      throw .cannotCreate(directory, reason: describe(error))
    }
    guard info.st_mode & S_IFMT == S_IFDIR else { throw .notADirectory(directory) }
    guard info.st_uid == ownerUID else {
      throw .ownedByAnotherUser(directory, owner: info.st_uid)
    }
    let mode = info.st_mode & 0o777
    guard mode & 0o077 == 0 else { throw .accessibleByOthers(directory, mode: mode) }
  }

  static func describe(_ error: Int32) -> String { String(cString: strerror(error)) }
}

/// Why a socket location is refused.
public enum SocketPathError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The directory does not exist (for a client: no broker has run).
  case missing(String)
  /// The directory could not be created or examined.
  case cannotCreate(String, reason: String)
  /// Something other than a directory (a file, a symbolic link) is in the way.
  case notADirectory(String)
  /// Another user owns the directory.
  case ownedByAnotherUser(String, owner: uid_t)
  /// Group or others have permissions on the directory.
  case accessibleByOthers(String, mode: mode_t)
  /// The socket path is longer than the kernel allows.
  case pathTooLong(String, limit: Int)

  /// One line naming the path and what is wrong with it.
  public var description: String {
    switch self {
    case .missing(let path):
      return "\(path) does not exist"
    case .cannotCreate(let path, let reason):
      return "cannot create \(path): \(reason)"
    case .notADirectory(let path):
      return "\(path) is not a directory (refusing a file or symbolic link there)"
    case .ownedByAnotherUser(let path, let owner):
      return "\(path) belongs to uid \(owner), not to this user; refusing it"
    case .accessibleByOthers(let path, let mode):
      return "\(path) has mode \(String(mode, radix: 8)); it must be 700 (chmod 700 \(path))"
    case .pathTooLong(let path, let limit):
      return "the socket path \(path) is longer than \(limit) bytes"
    }
  }
}
