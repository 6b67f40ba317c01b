import ArgumentParser
import FerryCommandLine

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The `ferry` command: typed clipboard and drag transfers for X11.
///
/// Run by the name `pbcopy` or `pbpaste` (a link to it, as `Scripts/install` makes), it is that
/// command: one binary for the three tools, where three static ones held three copies of the
/// Swift runtime, FoundationEssentials and Xlib (docs/PERFORMANCE.md, "Size").
@main
struct Ferry: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "ferry",
    abstract: "Typed clipboard and drag-and-drop transfers for X11.",
    discussion: ExitStatus.helpText,
    subcommands: [
      CopyCommand.self, PasteCommand.self, TypesCommand.self, WatchCommand.self, ClearCommand.self,
      StatusCommand.self, HistoryCommand.self, RegisterCommand.self, SaveCommand.self,
      OpenCommand.self, TypeCommand.self,
      DaemonCommand.self, ConfigCommand.self, SyncCommand.self,
      DragCommand.self,
      DropCommand.self,
    ])

  static func main() {
    let arguments = CommandLine.arguments
    if arguments.count > 1, arguments[1] == DetachedSelectionServer.flag {
      DetachedSelectionServer.serve(Array(arguments.dropFirst(2)))
    }
    switch arguments.first?.split(separator: "/").last {
    case "pbcopy": return PBCopy.main()
    case "pbpaste": return PBPaste.main()
    default: break
    }
    runAsTool("ferry") {
      var command = try parseAsRoot(Array(arguments.dropFirst()))
      if var asyncCommand = command as? any AsyncParsableCommandRunner {
        try asyncCommand.runBlocking()
      } else {
        try command.run()
      }
    }
  }
}

/// Options every pasteboard command takes.
struct PasteboardOptions: ParsableArguments {
  @Option(
    name: [.customLong("pboard", withSingleDash: true), .customLong("pasteboard")],
    help: ArgumentHelp("The pasteboard: general, primary, find or any name.", valueName: "name"))
  var pasteboard = "general"
}

/// A subcommand whose work is asynchronous, run to completion from `main`.
protocol AsyncParsableCommandRunner {
  mutating func runBlocking() throws
}
