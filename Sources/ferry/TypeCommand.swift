import ArgumentParser
import UniformTypeIdentifiers

struct TypeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "type", abstract: "Look up a type.")
  @Argument var query: String
  func run() throws { print(UTType(query) ?? "none") }
}
