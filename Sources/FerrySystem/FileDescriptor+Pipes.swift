#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension FileDescriptor {
  /// A pipe whose ends are close-on-exec from the start (`pipe2(2)`, so that no child another
  /// thread spawns meanwhile inherits them) and numbered above standard error.
  ///
  /// Above standard error, because a process started with a standard stream closed gets that
  /// number back from `pipe`; a child's `dup2` of such an end onto 0, 1 or 2 would then land
  /// on another of the pipes handed to it.
  ///
  /// - Throws: `Errno` when the pipe cannot be made.
  public static func closeOnExecPipe() throws(Errno) -> (
    readEnd: FileDescriptor, writeEnd: FileDescriptor
  ) {
    var (readEnd, writeEnd) = try Errno.catching { try FileDescriptor.pipe(options: .closeOnExec) }
    do {
      try readEnd.moveAboveStandardStreams()
      try writeEnd.moveAboveStandardStreams()
    } catch {
      try? readEnd.close()
      try? writeEnd.close()
      throw error
    }
    return (readEnd, writeEnd)
  }

  /// Renumbers a descriptor of 0, 1 or 2 to the lowest free number above them, close-on-exec.
  private mutating func moveAboveStandardStreams() throws(Errno) {
    guard rawValue <= 2 else { return }
    let moved = fcntl(rawValue, F_DUPFD_CLOEXEC, 3)
    guard moved >= 0 else { throw Errno.last }
    try? close()
    self = FileDescriptor(rawValue: moved)
  }

  /// Makes reads and writes on this descriptor fail with `EAGAIN` instead of waiting
  /// (`O_NONBLOCK`, for every descriptor sharing its open file).
  ///
  /// - Throws: `Errno` when `fcntl(2)` fails.
  public func setNonBlocking() throws(Errno) {
    let flags = fcntl(rawValue, F_GETFL)
    guard flags >= 0, fcntl(rawValue, F_SETFL, flags | O_NONBLOCK) == 0 else { throw Errno.last }
  }
}
