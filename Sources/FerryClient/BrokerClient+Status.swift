import FerryProtocol

extension BrokerClient {
  /// How the broker is doing: version, process, display, pasteboards.
  public func status() throws(BrokerClientError) -> StatusResponse {
    try connection.send(.json(.request, StatusRequest()))
    return try connection.expectResponse(StatusResponse.self)
  }
}
