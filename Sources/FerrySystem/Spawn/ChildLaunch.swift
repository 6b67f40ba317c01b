import CFerrySystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// How to start a program: what runs, with which descriptors, in which process group — and
/// the one place Ferry calls `posix_spawn(3)`.
///
/// Every child starts with no signal blocked and every signal at its default action, whatever
/// the spawning thread blocks (Dispatch and Swift concurrency threads block nearly all) or the
/// process ignores (servers ignore `SIGPIPE`): `posix_spawn` would pass both on.
///
/// ```swift
/// let (readEnd, writeEnd) = try FileDescriptor.closeOnExecPipe()
/// let child = try ChildLaunch(
///   path: "/bin/echo", arguments: ["echo", "hello"],
///   descriptors: [.open("/dev/null", as: 0, .readOnly), .duplicate(writeEnd, as: 1)],
///   group: .own
/// ).spawn()
/// try writeEnd.close()
/// let termination = try child.waitForExit()   // .exited(0)
/// ```
public struct ChildLaunch: Sendable {
  /// Where the child stands among process groups and sessions.
  public enum Group: Sendable, Hashable {
    /// This process's group and session.
    case inherited
    /// A process group of its own, led by the child (`POSIX_SPAWN_SETPGROUP` with group 0):
    /// a signal to the group reaches what the child starts too.
    case own
    /// A session of its own, with no controlling terminal (`POSIX_SPAWN_SETSID`): nothing
    /// that happens to this process's terminal reaches it.
    case ownSession
  }

  /// What the child's descriptor table gets, in order, before the program runs.
  public enum DescriptorAction: Sendable, Hashable {
    /// `dup2` of this process's `descriptor` onto the child's `number` (which is then not
    /// close-on-exec, even when the two are the same number).
    case duplicate(FileDescriptor, as: CInt)
    /// Opens `path` as the child's `number`.
    case open(String, as: CInt, FileDescriptor.AccessMode)
    /// Closes every descriptor from `number` up: the child inherits nothing else of this
    /// process's, close-on-exec or not.
    case closeAll(from: CInt)
  }

  /// The program's path (no `PATH` search).
  public var path: String
  /// The full argument vector, `argv[0]` included.
  public var arguments: [String]
  /// `NAME=value` strings; `nil` passes this process's environment.
  public var environment: [String]?
  /// The descriptor table's changes, applied in order.
  public var descriptors: [DescriptorAction]
  /// The child's process group or session.
  public var group: Group

  /// Describes a launch.
  public init(
    path: String, arguments: [String], environment: [String]? = nil,
    descriptors: [DescriptorAction] = [], group: Group = .inherited
  ) {
    self.path = path
    self.arguments = arguments
    self.environment = environment
    self.descriptors = descriptors
    self.group = group
  }

  /// Starts the program.
  ///
  /// - Returns: The child; wait for it (``ChildProcessID/waitForExit()``) or it stays a zombie
  ///   once it ends.
  /// - Throws: `Errno` from `posix_spawn` (`ENOENT`, `EACCES`, `ETXTBSY`, …).
  public func spawn() throws(Errno) -> ChildProcessID {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for action in descriptors {
      let result: CInt
      switch action {
      case .duplicate(let descriptor, let number):
        result = posix_spawn_file_actions_adddup2(&actions, descriptor.rawValue, number)
      case .open(let path, let number, let mode):
        result = posix_spawn_file_actions_addopen(&actions, number, path, mode.rawValue, 0)
      case .closeAll(let number):
        result = cferry_spawn_file_actions_addclosefrom(&actions, number)
      }
      guard result == 0 else { throw Errno(rawValue: result) }
    }

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    // Every signal, real-time ones included (a host may ignore SIGRTMIN as well).
    var defaults = sigset_t()
    sigfillset(&defaults)
    sigdelset(&defaults, SIGKILL)
    sigdelset(&defaults, SIGSTOP)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    var flags = Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
    switch group {
    case .inherited: break
    case .own:
      posix_spawnattr_setpgroup(&attributes, 0)
      flags |= Int16(POSIX_SPAWN_SETPGROUP)
    case .ownSession:
      flags |= cferry_spawn_flag_setsid()
    }
    posix_spawnattr_setflags(&attributes, flags)

    let argv = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let result: CInt
    if let environment {
      let envp = environment.map { strdup($0) } + [nil]
      defer { envp.forEach { free($0) } }
      result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
    } else {
      result = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
    }
    guard result == 0 else { throw Errno(rawValue: result) }
    return ChildProcessID(rawValue: pid)
  }
}
