import ArgumentParser
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// `pbpaste`: writes a pasteboard's contents to standard output, as on macOS.
///
/// The `pbpaste` executable runs it; so does `ferry` when run by that name (a link to it, as
/// `Scripts/install` makes: one binary for the three tools; docs/PERFORMANCE.md, "Size").
public struct PBPaste: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "pbpaste",
    abstract: "Write a pasteboard's contents to standard output.",
    discussion: """
      Plain text by default; --type asks for any type, converted when the copy holds another \
      one. Works with a running `ferry daemon` and, without one, straight from the X selection.

      \(ExitStatus.helpText)
      """)

  /// The types `-Prefer` puts first.
  enum Preference: String, ExpressibleByArgument, CaseIterable {
    case txt, ascii, rtf, ps
  }

  @Option(
    name: .customLong("pboard", withSingleDash: true),
    help: ArgumentHelp("The pasteboard: general, primary, find or any name.", valueName: "name"))
  var pasteboard = "general"

  @Option(
    name: .customLong("Prefer", withSingleDash: true),
    help: ArgumentHelp("Prefer this kind of data: txt, rtf or ps.", valueName: "kind"))
  var prefer: Preference?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Paste exactly this type: an identifier, a MIME type or an extension.", valueName: "type"))
  var type: String?

  @Flag(help: "List the copy's types in order, one per line.")
  var listTypes = false

  @Option(help: ArgumentHelp("How long to wait for the owner, in seconds.", valueName: "seconds"))
  var timeout: Double = 5

  public init() {}

  /// Runs the command with the process's arguments, then returns (or exits with a failure's
  /// status).
  public static func main() {
    runAsTool("pbpaste") {
      let arguments = Array(CommandLine.arguments.dropFirst())
      // The common command lines skip the argument parser's start-up work; anything else
      // (help, mistakes) goes through it for its messages.
      let invocation = try Self.quickParse(arguments) ?? parse(arguments).invocation
      try invocation.paste()
    }
  }

  /// What the parsed command line asks for.
  var invocation: PasteInvocation {
    PasteInvocation(
      pasteboard: pasteboard, prefer: prefer, type: type, listTypes: listTypes, timeout: timeout)
  }

  /// What plain argument lists (`-pboard`, `-Prefer`, `--type`, `--list-types`, `--timeout`)
  /// ask for, or `nil` for anything else. Builds no `PBPaste`: its argument wrappers cost
  /// start-up time too.
  static func quickParse(_ arguments: [String]) throws -> PasteInvocation? {
    var command = PasteInvocation()
    var index = 0
    func value() -> String? {
      index += 1
      return index < arguments.count ? arguments[index] : nil
    }
    while index < arguments.count {
      switch arguments[index] {
      case "-pboard":
        guard let name = value() else { return nil }
        command.pasteboard = name
      case "-Prefer":
        guard let kind = value().flatMap(Preference.init(rawValue:)) else { return nil }
        command.prefer = kind
      case "--type":
        guard let type = value() else { return nil }
        command.type = type
      case "--list-types": command.listTypes = true
      case "--timeout":
        guard let seconds = value().flatMap(Double.init), seconds > 0 else { return nil }
        command.timeout = seconds
      default: return nil
      }
      index += 1
    }
    return command
  }
}

/// One `pbpaste`: what its command line asks for, however it was parsed.
struct PasteInvocation: Equatable {
  var pasteboard = "general"
  var prefer: PBPaste.Preference?
  var type: String?
  var listTypes = false
  var timeout: Double = 5

  func paste() throws {
    let request = PasteRequest(
      pasteboard: pasteboard, preferences: try preferences(),
      timeout: .milliseconds(Int(timeout * 1000)))
    if listTypes {
      for type in try Paster.types(request) { print(type) }
      return
    }
    try Paster.paste(request, to: 1)
  }

  /// The identifiers wanted, best first. Only a MIME type or an extension in `--type` loads
  /// the type tables: a plain `pbpaste` starts without them.
  private func preferences() throws -> [String] {
    if let type { return [try TypeArgument.identifier(type)] }
    let text = [TypeArgument.textIdentifier, "public.plain-text"]
    switch prefer {
    case .rtf: return ["public.rtf"] + text
    case .ps: return [try TypeArgument.identifier("application/postscript")] + text
    case .txt, .ascii, nil: return text
    }
  }
}
