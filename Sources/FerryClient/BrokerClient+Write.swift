import FerryProtocol

extension BrokerClient {
  /// Puts one item on a pasteboard, replacing what it held. The broker makes the item only
  /// once every byte has arrived: a failed write leaves the previous item in place.
  ///
  /// ```swift
  /// try client.write([
  ///   .data(profileJSON, type: "com.example.profile"),
  ///   .data(Data("Juan Chavez".utf8), type: "public.utf8-plain-text"),
  /// ])
  /// ```
  ///
  /// - Parameters:
  ///   - representations: The representations, richest first.
  ///   - pasteboard: The pasteboard's name; any name makes a pasteboard.
  ///   - options: How the item may be kept and shown.
  ///   - expires: When the item stops being served, in seconds since 1970.
  /// - Returns: The pasteboard's new change count.
  /// - Throws: ``BrokerClientError``: `unknownType`, `badRequest`, `io` when a source
  ///   descriptor fails (the write is abandoned and the connection closed), and the
  ///   connection failures.
  @discardableResult
  public func write(
    _ representations: [Representation], to pasteboard: String = WireProtocol.defaultPasteboard,
    options: [ItemOption] = [], expires: Double? = nil
  ) throws(BrokerClientError) -> Int {
    try write(
      WriteRequest(
        pasteboard: pasteboard,
        representations: representations.map { RepresentationHeader(type: $0.type) },
        options: options.isEmpty ? nil : options, expires: expires),
      representations
    ).changeCount
  }

  /// Puts an item that came from another machine on a pasteboard, when its origin is greater
  /// than the current item's (`ferry sync`; docs/SYNC.md).
  ///
  /// - Returns: The change count after, and whether the item was written (`applied`); one
  ///   that was not went to the history only.
  /// - Throws: ``BrokerClientError`` as ``write(_:to:options:expires:)``.
  public func write(
    _ representations: [Representation], to pasteboard: String, origin: ItemOrigin,
    expires: Double? = nil
  ) throws(BrokerClientError) -> ChangeCountResponse {
    try write(
      WriteRequest(
        pasteboard: pasteboard,
        representations: representations.map { RepresentationHeader(type: $0.type) },
        expires: expires, origin: origin),
      representations)
  }

  private func write(_ request: WriteRequest, _ representations: [Representation])
    throws(BrokerClientError) -> ChangeCountResponse
  {
    // While the data streams, an early refusal is looked for among the frames that came in:
    // the hello's answer must not be among them.
    try connection.completeHello()
    try connection.send(.json(.request, request))
    if let refusal = try connection.sendRepresentations(representations.map(\.source)) {
      throw refusal
    }
    return try connection.expectResponse(ChangeCountResponse.self)
  }

  /// Removes a pasteboard's items.
  ///
  /// - Returns: The pasteboard's new change count.
  @discardableResult
  public func clear(_ pasteboard: String = WireProtocol.defaultPasteboard)
    throws(BrokerClientError) -> Int
  {
    try connection.send(.json(.request, ClearRequest(pasteboard: pasteboard)))
    return try connection.expectResponse(ChangeCountResponse.self).changeCount
  }
}
