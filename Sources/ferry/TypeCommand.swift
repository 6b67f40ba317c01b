import ArgumentParser
import FerryCommandLine
import UniformTypeIdentifiers

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension Ferry {
  /// `ferry type`: look a type up by identifier, extension, MIME type or X11 target.
  struct TypeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "type",
      abstract: "Show a type: identifier, description, tags and conformance tree.",
      discussion: """
        QUERY is an identifier (public.jpeg), a filename extension with its dot (.jpg), a MIME \
        type (image/jpeg) or an X11 target (UTF8_STRING). Use --tag-class to say which.
        """)

    /// How to read the query.
    enum QueryKind: String, ExpressibleByArgument, CaseIterable {
      case identifier, `extension`, mime, x11
    }

    @Argument(help: "The identifier, .extension, MIME type or X11 target to look up.")
    var query: String

    @Option(help: ArgumentHelp("Read QUERY as this kind of name.", valueName: "kind"))
    var tagClass: QueryKind?

    @Option(
      help: ArgumentHelp("Also load declarations from this file or directory.", valueName: "path"))
    var declarations: [String] = []

    @Flag(help: "Print one JSON object.")
    var json = false

    func run() throws {
      for path in declarations {
        for problem in UTType.loadDeclarations(from: path) {
          // A file named on the command line that is no declaration file at all (unreadable,
          // not JSON or a property list, no declarations) is the command's failure, not a
          // warning: one line, status 5. A bad entry, or a bad file in a directory, warns.
          if problem.file == path, problem.entry == nil {
            throw CommandFailure("\(problem)", status: .badInput)
          }
          Output.writeError("ferry: warning: \(problem)\n")
        }
      }
      for problem in UTType.declarationDiagnostics where !declarations.contains(problem.file) {
        Output.writeError("ferry: warning: \(problem)\n")
      }
      guard let type = TypeQuery(query, kind: tagClass).resolve() else {
        throw CommandFailure(
          "no type has the identifier '\(query)' (try .\(query) or a MIME type)",
          status: .nothingAvailable)
      }
      print(json ? TypeReport(type).json() : TypeReport(type).text(), terminator: "")
    }
  }
}
