import FerryProtocol
import Foundation
import Logging
import Pasteboard
import Testing
import UniformTypeIdentifiers

@testable import FerryBroker

/// A broker's state with no socket — pasteboards of its own, fresh converters and a spool in
/// a temporary directory — and a handler over it, for one test.
///
/// ```swift
/// try await RequestHandlerFixture.with { fixture in
///   let state = try await fixture.handler.types(TypesRequest())
/// }
/// ```
struct RequestHandlerFixture {
  /// The temporary directory; the spool is in `spool/`.
  let root: String
  let state: BrokerState
  let handler: BrokerRequestHandler
  private let boards: BoardTable

  /// Runs `body` with a fresh fixture, whose configuration `configure` may change, and
  /// removes its directory afterwards.
  static func with<T>(
    _ configure: (inout BrokerSocketServer.Configuration) -> Void = { _ in },
    _ body: (RequestHandlerFixture) async throws -> T
  ) async throws -> T {
    let root = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let boards = BoardTable(converters: ConverterRegistry())
    // The socket's location is only named by `status`: nothing binds it.
    var configuration = BrokerSocketServer.Configuration(
      location: SocketPath(directory: root + "/run", fileName: "unbound.sock"),
      pasteboard: { boards.board($0) }, converters: boards.converters,
      spoolParent: root + "/spool")
    configure(&configuration)
    let spool = try SpoolDirectory(parent: configuration.spoolParent)
    configuration.converters.spoolParent = spool.path
    let state = BrokerState(configuration: configuration, spool: spool)
    let fixture = RequestHandlerFixture(
      root: root, state: state,
      handler: BrokerRequestHandler(
        state: state, logger: Logger(label: "test.requests"), clientName: "tests"),
      boards: boards)
    return try await body(fixture)
  }

  /// The pasteboard named `name`.
  func pasteboard(_ name: Pasteboard.Name = .general) -> Pasteboard { boards.board(name) }

  /// Puts an item of `representations` on `name`.
  @discardableResult
  func put(_ representations: [PasteboardRepresentation], on name: Pasteboard.Name = .general)
    -> Int
  {
    let board = pasteboard(name)
    return board.write(
      [PasteboardItem(representations: representations, converters: board.converters)])
  }

  /// Puts plain text on `name`.
  @discardableResult
  func put(text: String, on name: Pasteboard.Name = .general) -> Int {
    put([.data(Data(text.utf8), type: .utf8PlainText)], on: name)
  }

  /// The bytes of a payload held in memory, `nil` for a file.
  static func bytes(_ payload: PasteboardPayload) -> Data? {
    guard case .data(let data) = payload else { return nil }
    return data
  }

  /// The failure `body` throws as a ``ProtocolFailure``; records an issue when it throws
  /// nothing or something else.
  static func failure(
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
  ) async -> ProtocolFailure? {
    do {
      try await body()
      Issue.record("expected a refusal", sourceLocation: sourceLocation)
    } catch let failure as ProtocolFailure {
      return failure
    } catch {
      Issue.record("expected a ProtocolFailure, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
  }
}
