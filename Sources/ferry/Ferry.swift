import ArgumentParser

/// The `ferry` command: typed clipboard and drag transfers for X11.
@main
struct Ferry: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "ferry",
    abstract: "Typed clipboard and drag-and-drop transfers for X11.",
    subcommands: [TypeCommand.self])

  static func main() {
    mainReportingFailures()
  }
}
