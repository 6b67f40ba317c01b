import FerryProtocol
import Pasteboard

extension BrokerRequestHandler {
  /// `types`: what a pasteboard holds, once a write on its way has landed, cut to fit a
  /// frame.
  ///
  /// - Throws: ``ProtocolFailure``: `badRequest` for a bad name, `timeout`.
  func types(_ request: TypesRequest) async throws -> PasteboardState {
    let board = try await settledPasteboard(request.pasteboard)
    return state(of: board).fitting(within: PasteboardState.budget(sharing: 1))
  }

  /// `clear`: removes a pasteboard's items.
  ///
  /// - Returns: The pasteboard's new change count.
  /// - Throws: A `badRequest` refusal for a bad name.
  func clear(_ request: ClearRequest) throws(ProtocolFailure) -> ChangeCountResponse {
    let board = state.pasteboard(try Self.pasteboardName(request.pasteboard))
    let count = board.clearContents()
    logger.debug(
      "cleared", metadata: ["pasteboard": "\(board.name.rawValue)", "changeCount": "\(count)"])
    return ChangeCountResponse(changeCount: count)
  }
}
