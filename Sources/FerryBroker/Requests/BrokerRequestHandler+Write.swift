import FerryProtocol
import Pasteboard

/// How a `write` ended, when it did not throw.
enum WriteOutcome {
  /// The item is on the pasteboard and published: send this as the RESPONSE.
  case written(ChangeCountResponse)
  /// The request was refused before its data was read: the ERROR frame is sent, the data
  /// read and dropped, and the connection goes on. Nothing more to send.
  case refused(ProtocolFailure)
}

extension BrokerRequestHandler {
  /// `write`: receives every representation from `frames`, then puts the item on the
  /// pasteboard in one step. Until the last END arrives nothing changes, so a write that
  /// fails or that the client abandons leaves the previous item in place.
  ///
  /// A request refused before its data is read (``WritePlan``'s checks) is answered at once
  /// with its ERROR frame; its DATA and END frames are then read and dropped.
  ///
  /// - Returns: The answer once the item is published (``BrokerSocketServer/Configuration/publication``).
  /// - Throws: ``ConnectionEnded`` when the stream ends midway; a closing ``ProtocolFailure``
  ///   for a frame out of order, a concealed item past its limit, or a spool that fails.
  func write(_ request: WriteRequest, frames: inout some RequestFrameStream) async throws
    -> WriteOutcome
  {
    let plan: WritePlan
    do {
      plan = try WritePlan(request)
    } catch {
      // Refused before any data was read: say so now, skip the data, and go on.
      try await frames.sink.send(.error, error.body)
      try await Self.discard(representations: request.representations.count, from: &frames)
      logger.debug(
        "refused a write", metadata: ["code": "\(error.code)", "reason": "\(error.message)"])
      return .refused(error)
    }
    var representations: [PasteboardRepresentation] = []
    var sizes: [Int] = []
    var heldInMemory = 0
    for type in plan.types {
      var sink = RepresentationSink(
        type: type, spoolThreshold: plan.inMemoryOnly ? nil : configuration.spoolThreshold,
        spool: state.spool, threadPool: configuration.threadPool)
      receiving: while true {
        guard let frame = try await frames.nextFrame() else { throw ConnectionEnded() }
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
    let board = state.pasteboard(plan.pasteboard)
    let item = PasteboardItem(
      representations: representations, options: plan.options, expirationDate: plan.expires,
      converters: board.converters)
    configuration.history?.sources.note(item, source: clientName)
    let count: Int
    if let origin = request.origin {
      let outcome = state.origins.write([item], from: origin, to: board)
      guard outcome.applied else {
        // A copy from another machine older than the one here: kept in the history only.
        logger.debug(
          "a synchronized copy older than the current one goes to the history only",
          metadata: ["origin": "\(origin)", "pasteboard": "\(board.name.rawValue)"])
        if let history = configuration.history,
          history.settings.recordedPasteboards.contains(board.name.rawValue)
        {
          await history.record(item, from: board, changeCount: outcome.changeCount)
        } else {
          _ = configuration.history?.sources.take(item)
        }
        return .written(ChangeCountResponse(changeCount: outcome.changeCount, applied: false))
      }
      count = outcome.changeCount
    } else {
      count = board.write([item])
    }
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
    await configuration.publication(board.name, count)
    return .written(
      ChangeCountResponse(changeCount: count, applied: request.origin == nil ? nil : true))
  }

  /// Reads and drops the DATA and END frames of `representations` representations.
  ///
  /// - Throws: ``ConnectionEnded`` when the stream ends first; a closing `badRequest` for
  ///   any other frame.
  static func discard(representations: Int, from frames: inout some RequestFrameStream)
    async throws
  {
    var ends = 0
    while ends < representations {
      guard let frame = try await frames.nextFrame() else { throw ConnectionEnded() }
      switch frame.kind {
      case .data: continue
      case .end: ends += 1
      default:
        throw ProtocolFailure.fatal(
          .badRequest, "a \(frame.kind) frame in the middle of a write (expected DATA or END)")
      }
    }
  }
}
