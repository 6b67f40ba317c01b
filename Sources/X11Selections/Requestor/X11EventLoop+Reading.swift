import FoundationEssentials
import Pasteboard
import SelectionBackendCore

extension SelectionLoop {
  /// Starts a read on the X thread that delivers its outcome to `once`, or the loss of the
  /// connection if that comes first.
  func startRead(
    _ selection: Selection, target: String, into sink: SelectionSink, stepTimeout: Duration,
    byteLimit: Int?, expectedOwner: SelectionOwnership? = nil, once: Once<SelectionData>
  ) {
    let once = tracked(once)
    submit { session in
      let connection = session.connection
      session.reader.start(
        selection: connection.atom(selection), target: connection.atom(target), sink: sink,
        stepTimeout: stepTimeout, budget: byteLimit, expectedOwner: expectedOwner, once: once)
    }
  }

  /// Asks the owner of `selection` for `target` and reads the reply, following INCR.
  func read(
    _ selection: Selection, target: String, into sink: SelectionSink = .memory,
    stepTimeout: Duration,
    byteLimit: Int?, expectedOwner: SelectionOwnership? = nil
  ) async throws -> SelectionData {
    try await withCheckedThrowingContinuation { continuation in
      startRead(
        selection, target: target, into: sink, stepTimeout: stepTimeout, byteLimit: byteLimit,
        expectedOwner: expectedOwner, once: Once(continuation))
    }
  }

  /// Decodes a text reply by its type: UTF-8, Latin-1 or compound text.
  func decodeText(_ reply: SelectionData) async throws -> String {
    switch reply.type {
    case "STRING":
      return String(decoding: reply.data.map { UInt16($0) }, as: UTF16.self)
    case "COMPOUND_TEXT":
      let data = reply.data
      let utf8 = try await perform { session in
        session.connection.utf8Text(from: data, encoding: session.connection.atoms[.compoundText])
      }
      guard let utf8 else { throw X11Error.malformedReply("compound text Xlib cannot decode") }
      return String(decoding: utf8, as: UTF8.self)
    default:
      return String(decoding: reply.data, as: UTF8.self)
    }
  }

  /// Reads one target and returns its data for its type: compound text and (unless the type
  /// is Latin-1 itself) `STRING` are decoded to UTF-8.
  func read(
    _ target: OwnerOffer.Target, of selection: Selection, stepTimeout: Duration,
    byteLimit: Int?,
    expectedOwner: SelectionOwnership? = nil
  ) async throws -> Data {
    try await data(
      of: try await read(
        selection, target: target.name, stepTimeout: stepTimeout, byteLimit: byteLimit,
        expectedOwner: expectedOwner),
      for: target)
  }

  /// Reads one target as ``read(_:of:stepTimeout:byteLimit:expectedOwner:)`` does, its bytes
  /// written to a file of `spool` as they arrive, never held whole (the bytes in memory when
  /// they are few: ``ConversionSpool/payload(inMemoryUpTo:writtenBy:)``). A read that fails
  /// leaves no file.
  ///
  /// Compound text, and `STRING` for a type that is not Latin-1, are decoded to UTF-8 in
  /// memory: owners send UTF-8 for UTF-8 targets, and the few that answer with another
  /// encoding send short texts.
  func read(
    _ target: OwnerOffer.Target, of selection: Selection, spoolingTo spool: ConversionSpool,
    stepTimeout: Duration, expectedOwner: SelectionOwnership? = nil
  ) async throws -> PasteboardPayload {
    var reply: SelectionData?
    let payload = try await spool.payload { descriptor in
      reply = try await read(
        selection, target: target.name, into: .fileDescriptor(descriptor),
        stepTimeout: stepTimeout, byteLimit: nil, expectedOwner: expectedOwner)
    }
    guard var reply, Self.needsDecoding(reply, for: target) else { return payload }
    reply.data = try payload.data()
    return .data(try await data(of: reply, for: target))
  }

  /// Whether a reply's bytes are text in another encoding than `target`'s type says:
  /// compound text, or `STRING` (Latin-1) for a type that is not Latin-1.
  static func needsDecoding(_ reply: SelectionData, for target: OwnerOffer.Target) -> Bool {
    reply.type == "COMPOUND_TEXT" || (reply.type == "STRING" && target.type != .latin1PlainText)
  }

  /// A reply's data for `target`'s type: compound text and (unless the type is Latin-1
  /// itself) `STRING` decoded to UTF-8.
  func data(of reply: SelectionData, for target: OwnerOffer.Target) async throws -> Data {
    if Self.needsDecoding(reply, for: target) {
      return Data(try await decodeText(reply).utf8)
    }
    return reply.data
  }
}
