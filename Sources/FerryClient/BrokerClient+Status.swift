import FerryProtocol

extension BrokerClient {
  /// How the broker is doing: version, process, display, pasteboards.
  public func status() throws(BrokerClientError) -> StatusResponse {
    try connection.send(.json(.request, StatusRequest()))
    return try connection.expectResponse(StatusResponse.self)
  }
}

extension BrokerClient {
  /// Tells the broker how this process's sync links are and the highest clock seen on them
  /// (`ferry sync`; docs/SYNC.md).
  ///
  /// - Returns: The broker's node and its clock now.
  public func syncReport(_ links: [SyncLinkStatus], process: Int32, clock: Int?)
    throws(BrokerClientError) -> SyncReportResponse
  {
    try connection.send(
      .json(.request, SyncReportRequest(process: process, links: links, clock: clock)))
    return try connection.expectResponse(SyncReportResponse.self)
  }
}
