import ArgumentParser
import FerryClient
import FerryCommandLine
import JSONText
import UniformTypeIdentifiers

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension Ferry {
  /// `ferry copy`: one item with several representations, in order.
  struct CopyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "copy",
      abstract: "Copy one item with one or more representations, richest first.",
      discussion: """
        ferry copy --type com.example.profile profile.json --type text name.txt
        Each --type names the type of the file at the same position; without --type, each \
        file's type is inferred. '-' reads standard input.
        """)

    @OptionGroup var options: PasteboardOptions
    @Option(
      name: .long,
      help: ArgumentHelp("The type of the file at the same position.", valueName: "type"))
    var type: [String] = []
    @Flag(help: "Mark the copy as a password: served, never saved or shown in history.")
    var sensitive = false
    @Argument(help: "The files holding the representations, in order.")
    var files: [String] = []

    func validate() throws {
      if files.isEmpty { throw ValidationError("Give at least one file ('-' for standard input).") }
      if !type.isEmpty && type.count != files.count {
        throw ValidationError(
          "Give one --type per file, or none (\(type.count) types for \(files.count) files).")
      }
    }

    func run() throws {
      var representations: [(type: String, data: Data)] = []
      for (index, file) in files.enumerated() {
        let data = try InputReader.read(file: file)
        representations.append(
          try CopyPlanner.representation(
            of: data, fileName: file, type: type.isEmpty ? nil : type[index]))
      }
      try Copier.copy(
        CopyRequest(
          pasteboard: options.pasteboard, representations: representations, concealed: sensitive,
          client: "ferry copy"))
    }
  }

  /// `ferry paste`.
  struct PasteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "paste", abstract: "Write a pasteboard's contents to standard output.")

    @OptionGroup var options: PasteboardOptions
    @Option(
      name: .long,
      help: ArgumentHelp("The types wanted, best first (repeatable).", valueName: "type"))
    var type: [String] = []
    @Option(help: ArgumentHelp("How long to wait for the owner, in seconds.", valueName: "seconds"))
    var timeout: Double = 5

    func run() throws {
      let preferences =
        type.isEmpty
        ? [TypeArgument.textIdentifier, "public.plain-text"] : try type.map(TypeArgument.identifier)
      try Paster.paste(
        PasteRequest(
          pasteboard: options.pasteboard, preferences: preferences,
          timeout: .milliseconds(Int(timeout * 1000))),
        to: 1)
    }
  }

  /// `ferry types`.
  struct TypesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "types",
      abstract: "List the copy's types in order, stored ones first, then conversions.")

    @OptionGroup var options: PasteboardOptions
    @Flag(help: "Print one JSON object.")
    var json = false

    func run() throws {
      let request = PasteRequest(
        pasteboard: options.pasteboard, preferences: [], timeout: .seconds(5))
      let types = try Paster.types(request)
      if json {
        print(
          Output.json(
            .object([("pasteboard", .string(options.pasteboard)), ("types", .strings(types))])))
      } else {
        for type in types {
          let conforms = UTType(type).map { parentsLine($0) } ?? ""
          print(conforms.isEmpty ? type : "\(type)\t\(conforms)")
        }
      }
    }

    private func parentsLine(_ type: UTType) -> String {
      type._parents.map(\.identifier).joined(separator: ", ")
    }
  }
}
