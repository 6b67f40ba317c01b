import FerryProtocol
import NIOCore
import NIOPosix
import Pasteboard
import UniformTypeIdentifiers

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension BrokerSocketConnection {
  /// `write`: receives every representation, then puts the item on the pasteboard in one
  /// step. Until the last END arrives nothing changes, so a write that fails or that the
  /// client abandons leaves the previous item in place.
  mutating func write(_ request: WriteRequest) async throws {
    let plan: WritePlan
    do {
      plan = try WritePlan(request)
    } catch {
      // Refused before any data was read: say so now, skip the data, and go on.
      try await send(.error, error.body)
      try await discard(representations: request.representations.count)
      logger.debug(
        "refused a write", metadata: ["code": "\(error.code)", "reason": "\(error.message)"])
      return
    }
    let configuration = context.configuration
    var representations: [PasteboardRepresentation] = []
    var sizes: [Int] = []
    var heldInMemory = 0
    for type in plan.types {
      var sink = RepresentationSink(
        type: type, spoolThreshold: plan.inMemoryOnly ? nil : configuration.spoolThreshold,
        spool: context.spool, threadPool: configuration.threadPool)
      receiving: while true {
        guard let frame = try await nextFrame() else { throw ConnectionEnded() }
        switch frame.kind {
        case .data:
          if plan.inMemoryOnly {
            heldInMemory += frame.body.count
            if heldInMemory > configuration.concealedLimit {
              throw ProtocolFailure.fatal(
                .badRequest,
                "a concealed item is held in memory only, and this one is larger than \(configuration.concealedLimit >> 20) MiB"
              )
            }
          }
          do {
            try await sink.append(frame.body)
          } catch {
            // One line for the client that names the cause; the path is for the log.
            let reason = (error as? SpoolError)?.reason ?? "\(error)"
            logger.error("spooling a copy failed", metadata: ["error": "\(error)"])
            throw ProtocolFailure.fatal(
              .internal,
              "the broker cannot keep this copy: writing it to its spool failed (\(reason)); the previous item stays"
            )
          }
        case .end:
          break receiving
        default:
          throw ProtocolFailure.fatal(
            .badRequest, "a \(frame.kind) frame in the middle of a write (expected DATA or END)")
        }
      }
      sizes.append(sink.count)
      representations.append(sink.finish())
    }
    let board = context.pasteboard(plan.pasteboard)
    let item = PasteboardItem(
      representations: representations, options: plan.options, expirationDate: plan.expires,
      converters: board.converters)
    context.configuration.history?.sources.note(item, source: clientName)
    let count = board.write([item])
    if item.options.contains(.concealed) {
      logger.debug(
        "wrote a concealed item",
        metadata: [
          "pasteboard": "\(board.name.rawValue)", "changeCount": "\(count)",
          "bytes": "\(sizes.reduce(0, +))",
        ])
    } else {
      logger.debug(
        "wrote an item",
        metadata: [
          "pasteboard": "\(board.name.rawValue)", "changeCount": "\(count)",
          "types": "\(plan.types.map(\.identifier))", "bytes": "\(sizes)",
        ])
    }
    await context.configuration.publication(board.name, count)
    try await send(.response, ChangeCountResponse(changeCount: count))
  }

  /// Reads and drops the DATA and END frames of `representations` representations.
  mutating func discard(representations: Int) async throws {
    var ends = 0
    while ends < representations {
      guard let frame = try await nextFrame() else { throw ConnectionEnded() }
      switch frame.kind {
      case .data: continue
      case .end: ends += 1
      default:
        throw ProtocolFailure.fatal(
          .badRequest, "a \(frame.kind) frame in the middle of a write (expected DATA or END)")
      }
    }
  }

  /// `register`: receives a declaration file, keeps it under its name (with the data
  /// directory's registrations, so a restart loads it again, or else in the spool), and
  /// registers it, resolving relative command paths against the client's directory.
  mutating func register(_ request: RegisterRequest) async throws {
    let limit = context.configuration.declarationLimit
    var contents = Data()
    receiving: while true {
      guard let frame = try await nextFrame() else { throw ConnectionEnded() }
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
      if let kept = context.configuration.registrations {
        path = try kept.keep(
          contents,
          as: .init(
            name: name, commandDirectory: request.directory,
            allowExampleNamespace: request.allowExampleNamespace ?? false))
      } else {
        path = try context.spool.reservedPath(named: name)
        try contents.write(to: URL(fileURLWithPath: path), options: .atomic)
      }
    } catch {
      throw ProtocolFailure.refusal(.internal, "cannot keep the declaration file: \(error)")
    }
    let problems: [String]
    do {
      problems = try context.configuration.converters.registerDeclarations(
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
    try await send(.response, RegisterResponse(problems: problems))
  }

  /// A safe file name from a client's: its last path component, unsafe characters replaced.
  static func fileName(_ name: String) -> String {
    let last = name.split(separator: "/").last.map(String.init) ?? ""
    let safe = String(
      last.map { $0.isASCII && ($0.isLetter || $0.isNumber || "._-+".contains($0)) ? $0 : "_" })
    return safe.isEmpty || safe.allSatisfy({ $0 == "." }) ? "declaration.json" : safe
  }
}

/// A `write` request, checked before its data is read.
struct WritePlan {
  var pasteboard: Pasteboard.Name
  var types: [UTType]
  var options: PasteboardItem.Options
  var expires: Date?
  /// Whether the item must never touch the disk: it is concealed, or carries a marker that
  /// may conceal it once its value is known.
  var inMemoryOnly: Bool

  init(_ request: WriteRequest) throws(ProtocolFailure) {
    pasteboard = try BrokerSocketConnection.pasteboardName(request.pasteboard)
    guard !request.representations.isEmpty else {
      throw .refusal(
        .badRequest, "a write needs at least one representation (to empty a pasteboard, use clear)")
    }
    var types: [UTType] = []
    for representation in request.representations {
      let type = try BrokerSocketConnection.type(named: representation.type)
      guard !types.contains(type) else {
        throw .refusal(.badRequest, "the type \(type.identifier) is listed twice")
      }
      types.append(type)
    }
    self.types = types
    var options: PasteboardItem.Options = []
    for option in request.options ?? [] {
      switch option {
      case .concealed: options.insert(.concealed)
      case .transient: options.insert(.transient)
      case .currentHostOnly: options.insert(.currentHostOnly)
      }
    }
    self.options = options
    if let seconds = request.expires {
      guard seconds.isFinite else {
        throw .refusal(.badRequest, "expires is not a number of seconds")
      }
      expires = Date(timeIntervalSince1970: seconds)
    }
    inMemoryOnly =
      options.contains(.concealed)
      || types.contains { $0 == .concealedMarker || $0 == .passwordManagerHint }
  }
}

/// Collects one representation's bytes: in memory up to the spool threshold, then in a spool
/// file written on the thread pool.
struct RepresentationSink {
  let type: UTType
  /// `nil` keeps everything in memory (a concealed item).
  let spoolThreshold: Int?
  let spool: SpoolDirectory
  let threadPool: NIOThreadPool
  private var memory = Data()
  private var writer: SpoolWriter?
  /// The bytes received.
  private(set) var count = 0

  init(type: UTType, spoolThreshold: Int?, spool: SpoolDirectory, threadPool: NIOThreadPool) {
    self.type = type
    self.spoolThreshold = spoolThreshold
    self.spool = spool
    self.threadPool = threadPool
  }

  mutating func append(_ bytes: [UInt8]) async throws {
    count += bytes.count
    if let writer {
      try await threadPool.runIfActive { try writer.write(bytes) }
      return
    }
    memory.append(contentsOf: bytes)
    if let threshold = spoolThreshold, memory.count > threshold {
      let writer = try spool.makeFile()
      let pending = memory
      memory = Data()
      try await threadPool.runIfActive { try writer.write(pending) }
      self.writer = writer
    }
  }

  /// The representation: the bytes in memory, or the spool file, owned by the item.
  func finish() -> PasteboardRepresentation {
    if let writer { return writer.finish().representation(of: type) }
    return .data(memory, type: type)
  }
}
