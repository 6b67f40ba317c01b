import FoundationEssentials
import UniformTypeIdentifiers

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Converts by running an external program: the source bytes on its standard input, the
/// result on its standard output. The converter behind a declaration file's `"command"`
/// conversions.
///
/// ```swift
/// let shouting = try CommandConverter(
///   from: .utf8PlainText, to: .shoutingText, command: ["tr", "a-z", "A-Z"])
/// ConverterRegistry.shared.register(shouting)
/// ```
///
/// The program runs from an argument vector, never through a shell: `command[0]` is an
/// absolute path, or a name looked up in `PATH` once, when the converter is made (relative
/// `PATH` entries are skipped). It inherits this process's environment and working directory,
/// plus `FERRY_SOURCE_TYPE` and `FERRY_TARGET_TYPE` (the identifiers of the conversion, so one
/// script can serve several), in a process group of its own, with every signal at its default.
///
/// A file payload is streamed to the program, never read into memory; the program may stop
/// reading its input at any point. Its output is kept in memory. A run fails with a
/// ``CommandConverterError`` when the program:
/// - runs past ``timeLimit`` (default 10 s), or prints more than ``maximumOutputBytes``
///   (default 64 MiB): it is killed then, with `SIGKILL`, and its process group too;
/// - exits with a non-zero status or is killed by a signal: the error quotes the first line
///   of its standard error (the first 4 KiB are read for it; the line is cut at 300 characters).
///
/// The program is reaped before ``convert(_:from:to:)`` returns or throws, whatever happened:
/// no zombie is left behind.
///
/// Cancelling the task kills and reaps the program and throws `CancellationError`.
public struct CommandConverter: OneWayConverter {
  /// The type read (and the types conforming to it).
  public let source: UTType
  /// The type produced.
  public let target: UTType
  /// The argument vector; `command[0]` is the resolved absolute path of the program.
  public let command: [String]
  /// How long one run may take.
  public let timeLimit: Duration
  /// The most a run may print on its standard output.
  public let maximumOutputBytes: Int

  /// Ten seconds: longer than any reasonable conversion, shorter than the patience of GTK
  /// (30 s) and of people; the same as ``PasteboardRepresentation/defaultTimeLimit``.
  public static let defaultTimeLimit: Duration = .seconds(10)
  /// 64 MiB: more than any text or picture a clipboard reasonably holds in memory.
  public static let defaultMaximumOutputBytes = 64 << 20

  /// Creates a converter that runs `command` to turn `source` into `target`.
  ///
  /// - Parameters:
  ///   - source: The type read (and the types conforming to it).
  ///   - target: The type produced.
  ///   - command: The program and its arguments. The program is an absolute path, or a name
  ///     without a slash that is looked up in `PATH` now.
  ///   - timeLimit: How long one run may take; positive.
  ///   - maximumOutputBytes: The most a run may print; positive.
  /// - Throws: ``CommandConverterError`` with reason
  ///   ``CommandConverterError/Reason/executableNotFound`` when the program is not an
  ///   executable file or cannot be found.
  /// - Precondition: `command` is not empty and the limits are positive.
  public init(
    from source: UTType, to target: UTType, command: [String],
    timeLimit: Duration = defaultTimeLimit, maximumOutputBytes: Int = defaultMaximumOutputBytes
  ) throws {
    precondition(!command.isEmpty, "a command needs a program")
    precondition(timeLimit > .zero, "the time limit must be positive")
    precondition(maximumOutputBytes > 0, "the output limit must be positive")
    guard let program = Self.resolveExecutable(command[0]) else {
      throw CommandConverterError(command: command, reason: .executableNotFound)
    }
    self.source = source
    self.target = target
    self.command = [program] + command.dropFirst()
    self.timeLimit = timeLimit
    self.maximumOutputBytes = maximumOutputBytes
  }

  /// Runs the program on `payload` and returns what it printed.
  ///
  /// - Throws: ``CommandConverterError`` (the program is reaped by then), or
  ///   `CancellationError`.
  public func convert(_ payload: PasteboardPayload, from source: UTType, to target: UTType)
    async throws -> PasteboardPayload
  {
    try await run(payload, from: source, to: target)
  }

  /// ``convert(_:from:to:)``, telling `onSpawn` the program's process ID as soon as it runs:
  /// the seam tests use to check the program is gone afterwards.
  package func run(
    _ payload: PasteboardPayload, from source: UTType, to target: UTType,
    onSpawn: @Sendable (Int32) -> Void = { _ in }
  ) async throws -> PasteboardPayload {
    let input: ChildProcess.Input
    switch payload {
    case .data(let data): input = .data(data)
    case .file(let url): input = .file(url.path)
    }
    let outcome: ChildProcess.Outcome
    do {
      outcome = try await ChildProcess.run(
        executable: command[0], arguments: command,
        environment: [
          "FERRY_SOURCE_TYPE": source.identifier, "FERRY_TARGET_TYPE": target.identifier,
        ],
        input: input,
        limits: ChildProcess.Limits(time: timeLimit, outputBytes: maximumOutputBytes),
        onSpawn: onSpawn)
    } catch ChildProcess.LaunchError.inputUnopenable(let path, let error) {
      throw CommandConverterError(
        command: command, reason: .inputUnreadable("open \(path): \(error)"))
    } catch ChildProcess.LaunchError.failed(let call, let error) {
      throw CommandConverterError(command: command, reason: .launchFailed("\(call): \(error)"))
    }
    func failure(_ reason: CommandConverterError.Reason) -> CommandConverterError {
      CommandConverterError(
        command: command, reason: reason, processID: outcome.processID,
        standardError: Self.firstLine(of: outcome.errorOutput))
    }
    switch outcome.ending {
    case .finished(.exited(0)): return .data(outcome.output)
    case .finished(.exited(let status)): throw failure(.exited(status: status))
    case .finished(.signalled(let signal)): throw failure(.signalled(signal))
    case .finished(.unknown): throw failure(.statusUnknown)
    case .timedOut: throw failure(.timedOut(timeLimit))
    case .outputTooLarge: throw failure(.outputTooLarge(limit: maximumOutputBytes))
    case .inputFailed(let error):
      throw failure(.inputUnreadable("\(error)"))
    case .cancelled: throw CancellationError()
    }
  }

  /// The longest line of standard error quoted in an error.
  static let quotedLineLength = 300

  /// The first non-blank line of `bytes`, trimmed, as text, cut at ``quotedLineLength``
  /// characters.
  static func firstLine(of bytes: Data) -> String {
    let text = String(decoding: bytes, as: UTF8.self)
    let line =
      text.split(whereSeparator: \.isNewline).lazy
      .map { $0.trimmingWhitespace() }.first { !$0.isEmpty } ?? ""
    return line.count > quotedLineLength ? line.prefix(quotedLineLength) + "…" : line
  }

  /// The absolute path of an executable regular file: `name` itself when it has a slash
  /// (and is absolute), else the first match in `searchPath`'s absolute entries.
  static func resolveExecutable(
    _ name: String, searchPath: String? = ProcessInfo.processInfo.environment["PATH"]
  ) -> String? {
    if name.contains("/") {
      return name.hasPrefix("/") && isExecutableFile(name) ? name : nil
    }
    guard !name.isEmpty else { return nil }
    let directories = (searchPath ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
    for directory in directories where directory.hasPrefix("/") {
      let candidate = directory.hasSuffix("/") ? "\(directory)\(name)" : "\(directory)/\(name)"
      if isExecutableFile(candidate) { return candidate }
    }
    return nil
  }

  static func isExecutableFile(_ path: String) -> Bool {
    var info = stat()
    guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
    return access(path, X_OK) == 0
  }
}
