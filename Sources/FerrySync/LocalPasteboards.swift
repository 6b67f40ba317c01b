import FerryProtocol

/// The seam between the sync engine and its machine's broker: what the engine needs of it.
/// ``BrokerPasteboards`` is the broker's, over its socket; the engine's unit tests use their
/// own.
public protocol LocalPasteboards: Sendable {
  /// The broker's node and clock, having moved the clock up to `clock`, and what the node's
  /// links are (for `ferry status`).
  func report(links: [SyncLinkStatus], clock: Int?) throws -> SyncReportResponse

  /// Follows `pasteboards`, calling `handler` with each change (the first call with the state
  /// now) until it returns `false` or the broker goes away.
  ///
  /// - Throws: When the broker cannot be reached or the watch ends with an error.
  func watch(_ pasteboards: [String], handler: @escaping @Sendable (PasteboardState) -> Bool)
    throws

  /// The representations `types` of the item `state` describes, when it is still the
  /// pasteboard's item once read.
  ///
  /// - Parameter limit: The most bytes in all.
  /// - Returns: The bytes, `.changed` when the pasteboard moved on, or `.tooLarge`.
  func read(_ types: [String], of state: PasteboardState, limit: Int) throws -> LocalRead

  /// Writes `item`, which came from `host`, when its origin is greater than the current
  /// item's.
  ///
  /// - Returns: Whether it was written (otherwise it went to the history only).
  func write(_ item: SyncItem, from host: String) throws -> Bool
}

/// What reading a local item gave.
public enum LocalRead: Sendable {
  /// Its representations, in order.
  case item([SyncItem.Representation])
  /// The pasteboard has another item now.
  case changed
  /// It has more bytes than the limit.
  case tooLarge(Int)
}
