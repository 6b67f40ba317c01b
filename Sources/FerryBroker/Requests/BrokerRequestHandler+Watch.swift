import FerryProtocol
import NIOCore
import Pasteboard

extension BrokerRequestHandler {
  /// `watch`: a RESPONSE, then an EVENT for each change of the pasteboards until the client
  /// closes `frames`. An event carries the types and the concealed flag, never bytes. A
  /// change that a newer one replaced before its event was sent is not reported: every event
  /// describes the pasteboard as it was at that change count.
  ///
  /// - Throws: A `badRequest` refusal for a bad pasteboard name (before the RESPONSE); a
  ///   closing `badRequest` for any frame the client sends during the watch.
  func watch(_ request: WatchRequest, frames: inout some RequestFrameStream) async throws {
    var names: [Pasteboard.Name] = []
    for name in request.pasteboards ?? WireProtocol.defaultWatchedPasteboards {
      let name = try Self.pasteboardName(name)
      if !names.contains(name) { names.append(name) }
    }
    let boards = names.map { state.pasteboard($0) }
    // Subscribe before answering, so that no change after the answer is missed.
    let changes = boards.map(\.changes)
    try await frames.sink.send(.response, WatchResponse(pasteboards: names.map(\.rawValue)))
    logger.debug("watching", metadata: ["pasteboards": "\(names.map(\.rawValue))"])
    let (events, eventSink) = AsyncStream.makeStream(of: (Int, Int).self)
    let outbound = frames.sink
    try await withThrowingTaskGroup(of: Void.self) { group in
      for (index, stream) in changes.enumerated() {
        group.addTask {
          for await count in stream { eventSink.yield((index, count)) }
        }
      }
      group.addTask { [self] in
        for await (index, count) in events {
          let board = boards[index]
          guard board.changeCount == count else { continue }  // superseded
          let snapshot = state(of: board, changeCount: count)
            .fitting(within: PasteboardState.budget(sharing: 1))
          guard board.changeCount == count else { continue }  // changed while read
          try await outbound.write(ByteBuffer(frame: try Frame.json(.event, snapshot)))
        }
      }
      // The client sends nothing more; the end of its stream ends the watch.
      while let frame = try await frames.nextFrame() {
        throw ProtocolFailure.fatal(
          .badRequest, "a \(frame.kind) frame during watch (close the connection to stop)")
      }
      eventSink.finish()
      group.cancelAll()
    }
  }
}
