import FerryProtocol
import Pasteboard

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension BrokerRequestHandler {
  /// `register`: receives a declaration file from `frames`, checks that it parses, keeps it
  /// under its name (with the data directory's registrations, so a restart loads it again,
  /// or else in the spool), and registers it, resolving relative command paths against the
  /// client's directory.
  ///
  /// - Returns: One line per entry left out, the broker's paths replaced by the file's name.
  /// - Throws: ``ProtocolFailure``: `invalidDeclaration` for a file that does not parse (then
  ///   nothing is kept or registered), `internal` when it cannot be kept; a closing
  ///   `badRequest` for a file past ``BrokerSocketServer/Configuration/declarationLimit`` or a
  ///   frame out of order; ``ConnectionEnded`` when the stream ends midway.
  func register(_ request: RegisterRequest, frames: inout some RequestFrameStream) async throws
    -> RegisterResponse
  {
    let limit = configuration.declarationLimit
    var contents = Data()
    receiving: while true {
      guard let frame = try await frames.nextFrame() else { throw ConnectionEnded() }
      switch frame.kind {
      case .data:
        contents.append(contentsOf: frame.body)
        if contents.count > limit {
          throw ProtocolFailure.fatal(
            .badRequest, "a declaration file larger than \(limit >> 20) MiB is refused")
        }
      case .end:
        break receiving
      default:
        throw ProtocolFailure.fatal(
          .badRequest, "a \(frame.kind) frame in the middle of a register (expected DATA or END)")
      }
    }
    let name = Self.fileName(request.name)
    // Checked before anything is kept: a file the broker kept and could not read would be
    // read again at every start.
    do throws(PasteboardError) {
      try ConverterRegistry.checkDeclarations(contents, named: name)
    } catch {
      throw ProtocolFailure.refusal(.invalidDeclaration, error.description)
    }
    let path: String
    do {
      if let kept = configuration.registrations {
        path = try kept.keep(
          contents,
          as: .init(
            name: name, commandDirectory: request.directory,
            allowExampleNamespace: request.allowExampleNamespace ?? false))
      } else {
        path = try state.spool.reservedPath(named: name)
        try contents.write(to: URL(fileURLWithPath: path), options: .atomic)
      }
    } catch {
      throw ProtocolFailure.refusal(.internal, "cannot keep the declaration file: \(error)")
    }
    let problems: [String]
    do {
      problems = try configuration.converters.registerDeclarations(
        from: path, allowingExampleNamespace: request.allowExampleNamespace ?? false,
        commandDirectory: request.directory
      ).map { $0.description.replacing(path, with: name) }
    } catch let error as PasteboardError {
      throw ProtocolFailure.refusal(
        .invalidDeclaration, error.description.replacing(path, with: name))
    }
    logger.info(
      "registered a declaration file",
      metadata: ["name": "\(name)", "problems": "\(problems.count)"])
    return RegisterResponse(problems: problems)
  }

  /// A safe file name from a client's: its last path component, unsafe characters replaced.
  static func fileName(_ name: String) -> String {
    let last = name.split(separator: "/").last.map(String.init) ?? ""
    let safe = String(
      last.map { $0.isASCII && ($0.isLetter || $0.isNumber || "._-+".contains($0)) ? $0 : "_" })
    return safe.isEmpty || safe.allSatisfy({ $0 == "." }) ? "declaration.json" : safe
  }
}
