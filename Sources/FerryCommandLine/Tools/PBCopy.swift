import ArgumentParser
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// `pbcopy`: copies standard input (or a file) to a pasteboard, as on macOS.
///
/// The `pbcopy` executable runs it; so does `ferry` when run by that name (a link to it, as
/// `Scripts/install` makes: one binary for the three tools; docs/PERFORMANCE.md, "Size").
public struct PBCopy: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "pbcopy",
    abstract: "Copy standard input or a file to a pasteboard.",
    discussion: """
      The input is copied as UTF-8 text when it is valid UTF-8, otherwise as the type its \
      content shows (shared-mime-info magic), unless --type says otherwise. pbcopy returns at \
      once: a running `ferry daemon` keeps the copy, or else a detached background process \
      serves it until another application takes the selection. With neither a display nor a \
      broker, in a terminal (over SSH), the text goes to the terminal's clipboard as an OSC 52 \
      sequence (inside tmux and screen too); FERRY_OSC52=never turns that off, =always makes it \
      the only way, and --osc52 asks for it once.

      \(ExitStatus.helpText)
      """)

  @Option(
    name: .customLong("pboard", withSingleDash: true),
    help: ArgumentHelp("The pasteboard: general, primary, find or any name.", valueName: "name"))
  var pasteboard = "general"

  @Option(
    name: .long,
    help: ArgumentHelp("The type: an identifier, a MIME type or an extension.", valueName: "type"))
  var type: String?

  @Flag(help: "Mark the copy as a password: served, never saved or shown in history.")
  var sensitive = false

  @Flag(
    help: "Copy to the terminal's clipboard (OSC 52), as over SSH, even with a display or broker.")
  var osc52 = false

  @Argument(help: "A file to copy instead of standard input.")
  var file: String?

  public init() {}

  /// Runs the command with the process's arguments, then returns (or exits with a failure's
  /// status).
  public static func main() {
    let arguments = CommandLine.arguments
    if arguments.count > 1, arguments[1] == DetachedSelectionServer.flag {
      DetachedSelectionServer.serve(Array(arguments.dropFirst(2)))
    }
    runAsTool("pbcopy") {
      let arguments = Array(arguments.dropFirst())
      // The common command lines skip the argument parser's start-up work; anything else
      // (help, mistakes) goes through it for its messages.
      let invocation = try Self.quickParse(arguments) ?? parse(arguments).invocation
      try invocation.copy()
    }
  }

  /// What the parsed command line asks for.
  var invocation: CopyInvocation {
    CopyInvocation(
      pasteboard: pasteboard, type: type, sensitive: sensitive, osc52: osc52, file: file)
  }

  /// What plain argument lists (`-pboard`, `--type`, `--sensitive`, one file) ask for, or
  /// `nil` for anything else. Builds no `PBCopy`: its argument wrappers cost start-up time too.
  static func quickParse(_ arguments: [String]) throws -> CopyInvocation? {
    var command = CopyInvocation()
    var index = 0
    func value() -> String? {
      index += 1
      return index < arguments.count ? arguments[index] : nil
    }
    while index < arguments.count {
      let argument = arguments[index]
      switch argument {
      case "-pboard":
        guard let name = value() else { return nil }
        command.pasteboard = name
      case "--type":
        guard let type = value() else { return nil }
        command.type = type
      case "--sensitive": command.sensitive = true
      case "--osc52": command.osc52 = true
      default:
        guard command.file == nil, argument == "-" || !argument.hasPrefix("-") else { return nil }
        command.file = argument
      }
      index += 1
    }
    return command
  }
}

/// One `pbcopy`: what its command line asks for, however it was parsed.
struct CopyInvocation: Equatable {
  var pasteboard = "general"
  var type: String?
  var sensitive = false
  var osc52 = false
  var file: String?

  func copy() throws {
    let input = try InputReader.read(file: file)
    let representation = try CopyPlanner.representation(of: input, fileName: file, type: type)
    try Copier.copy(
      CopyRequest(
        pasteboard: pasteboard, representations: [representation], concealed: sensitive,
        throughTerminal: osc52))
  }
}
