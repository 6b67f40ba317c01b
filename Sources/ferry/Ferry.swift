import ArgumentParser

/// The `ferry` command: typed clipboard and drag transfers for X11.
@main
struct Ferry: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Typed clipboard and drag-and-drop transfers for X11.",
    subcommands: [TypeCommand.self])
}
