import FerryProtocol

extension BrokerClient {
  /// Follows pasteboards, calling `handler` with each change, until it returns `false`.
  ///
  /// The connection carries nothing else afterwards and is closed when this returns.
  ///
  /// - Parameters:
  ///   - pasteboards: The pasteboards; `general` and `primary` when `nil`.
  ///   - idleTimeout: Give up with `timeout` when no change comes for this long; `nil` waits
  ///     forever.
  ///   - started: Called once the broker follows the pasteboards: every change from then on
  ///     is reported.
  ///   - handler: Called with each change; returns whether to go on.
  /// - Throws: ``BrokerClientError``.
  public func watch(
    _ pasteboards: [String]? = nil, idleTimeout: Duration? = nil, started: () -> Void = {},
    handler: (PasteboardState) -> Bool
  ) throws(BrokerClientError) {
    defer { close() }
    try connection.send(.json(.request, WatchRequest(pasteboards: pasteboards)))
    _ = try connection.expectResponse(WatchResponse.self)
    started()
    while true {
      let frame = try connection.receiveFrame(within: idleTimeout, waitingFor: "change")
      switch frame.kind {
      case .event:
        guard handler(try connection.decode(PasteboardState.self, from: frame)) else { return }
      case .error:
        throw try connection.brokerError(from: frame)
      default:
        throw connection.protocolViolation("\(frame.kind) frame during watch")
      }
    }
  }
}
