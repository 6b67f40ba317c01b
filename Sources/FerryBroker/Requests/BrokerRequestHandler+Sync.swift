import FerryProtocol

extension BrokerRequestHandler {
  /// `syncReport`: keeps what a `ferry sync` process says of its links for `status`, moves the
  /// clock up to the highest it saw, and answers with the broker's node and clock.
  func syncReport(_ request: SyncReportRequest) -> SyncReportResponse {
    state.syncReports.note(request.links, from: request.process)
    return SyncReportResponse(node: state.origins.node, clock: state.origins.observe(request.clock))
  }
}
