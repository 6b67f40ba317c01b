import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Reading what a copy command was given: a file, or standard input.
///
/// A regular file is read whole, whatever its size. Anything else is read to its end of file
/// as `cat` would — a pipe, `/dev/stdin`, a process substitution (`<(…)`), a FIFO, a
/// terminal, a device — but at most ``streamLimit`` bytes of it, so that an endless input
/// (`/dev/zero`, `yes`) ends with a message instead of taking all the memory.
public enum InputReader {
  /// The most bytes read from an input that is not a regular file: 1 GiB. The copy is held
  /// in memory (its type is read from all of it), so this bounds what an endless input costs;
  /// it is ten times the largest copy the benchmarks move through a pipe.
  public static let streamLimit = 1 << 30

  /// The whole of `file`, or of standard input when `file` is `nil` or `-`.
  ///
  /// - Throws: ``CommandFailure`` with status 6 naming the file: it cannot be read, or it is
  ///   not a regular file and goes on past ``streamLimit``.
  public static func read(file: String?) throws -> Data {
    guard let file, file != "-" else { return try readStandardInput() }
    var info = stat()
    if stat(file, &info) == 0, !isRegularOrDirectory(info) {
      let descriptor = open(file, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else {
        let reason = String(cString: strerror(errno))
        throw CommandFailure("cannot read \(file): \(reason)", status: .io)
      }
      defer { close(descriptor) }
      return try readStream(descriptor, named: file)
    }
    do {
      return try Data(contentsOf: URL(fileURLWithPath: file))
    } catch {
      throw CommandFailure("cannot read \(file): \(error.plainDescription)", status: .io)
    }
  }

  private static func readStandardInput() throws -> Data {
    var info = stat()
    if fstat(STDIN_FILENO, &info) == 0, isRegularOrDirectory(info) {
      // Read whole, whatever its size, into one buffer of the file's size (one more byte
      // sees whether it grew), which becomes the copy's `Data` uncopied.
      switch StreamInput.read(STDIN_FILENO, limit: .max - 1, expected: Int(info.st_size)) {
      case .success(let data): return data
      case .failure(.tooLong): preconditionFailure("no limit")
      case .failure(.system(let error)):
        throw CommandFailure("cannot read standard input: \(error)", status: .io)
      }
    }
    return try readStream(STDIN_FILENO, named: "standard input")
  }

  /// Whether `info` is a regular file (or a directory, left to the file reader's message).
  private static func isRegularOrDirectory(_ info: stat) -> Bool {
    let kind = info.st_mode & S_IFMT
    return kind == S_IFREG || kind == S_IFDIR
  }

  private static func readStream(_ descriptor: Int32, named name: String) throws -> Data {
    switch StreamInput.read(descriptor, limit: streamLimit) {
    case .success(let data):
      return data
    case .failure(.tooLong):
      throw CommandFailure(
        "\(name) goes on past \(streamLimit >> 30) GiB, the most read from a pipe, FIFO or device:"
          + " nothing copied (the pasteboard keeps what it had)",
        status: .io)
    case .failure(.system(let error)):
      throw CommandFailure("cannot read \(name): \(error)", status: .io)
    }
  }
}
