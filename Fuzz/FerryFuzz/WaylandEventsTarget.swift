@testable import WaylandSelections

/// `WaylandEventDecoder` over what a compositor might send Ferry's connection: a byte stream
/// and some descriptors, fed whole and in pseudo-random pieces, with the objects a connection
/// has after setup (registry 2, callback 3, seat 4, manager 5, data device 6, source 7) and
/// those the stream makes (`data_offer`) or deletes (`delete_id`).
///
/// Invariants: both feedings give the same messages and the same error; each message lies
/// where the one before ended, within the limits, and re-encodes to its bytes (all but its
/// strings' padding, which the wire leaves unspecified) — so nothing past a message's end was
/// read; an error names the offset where the faulty message begins, inside the input; the
/// descriptors handed out are the ones fed, in order, each once, and the rest stay with the
/// decoder for the caller to close; the messages re-encoded decode to themselves; a failed
/// decoder fails again with the same error; the end of the stream is an error exactly when
/// it falls inside a message.
///
/// The first input byte is how many descriptors come with the stream (0–31), the second
/// seeds the piece sizes; the rest is the stream.
let waylandEventsTarget = FuzzTarget(name: "wayland-events") { bytes in
  var input = FuzzInput(bytes)
  let descriptors = (0..<Int32(input.byte() % 32)).map { 1000 + $0 }
  var seed = UInt32(input.byte()) | 1
  let stream = Array(bytes.dropFirst(2))

  var whole = WaylandEventDecoder()
  whole.feed(stream, descriptors: descriptors)
  var wholeTable = FuzzObjectTable()
  let (messages, error) = drainWayland(&whole, &wholeTable)

  var pieces = WaylandEventDecoder()
  var pieceTable = FuzzObjectTable()
  var pieceMessages: [WaylandMessage] = []
  var pieceError: WaylandProtocolError?
  var fed = 0
  repeat {
    seed ^= seed << 13
    seed ^= seed >> 17
    seed ^= seed << 5
    let count = min(Int(seed % 97), stream.count - fed)
    // The descriptors come with the first bytes, as the kernel hands them over.
    pieces.feed(stream[fed..<fed + count], descriptors: fed == 0 ? descriptors : [])
    fed += count
    let (more, failure) = drainWayland(&pieces, &pieceTable)
    pieceMessages += more
    pieceError = failure
  } while fed < stream.count && pieceError == nil
  require(pieceMessages == messages, "messages fed in pieces differ from messages fed whole")
  require(
    pieceError == error,
    "error in pieces \(String(describing: pieceError)) ≠ \(String(describing: error))")

  var offset = 0
  var claimed: [Int32] = []
  for message in messages {
    require(message.offset == offset, "a message at \(message.offset), not \(offset)")
    require(
      message.size >= WaylandEventDecoder.headerSize
        && message.size <= WaylandEventDecoder.maximumMessageSize,
      "a message of \(message.size) bytes")
    require(offset + message.size <= stream.count, "a message past the input")
    let (encoded, sent) = message.encoded()
    require(
      encoded.count == message.size, "re-encoded to \(encoded.count) bytes, not \(message.size)")
    var original = Array(stream[offset..<(offset + message.size)])
    var again = encoded
    for padding in message.paddingRanges {
      for index in padding {
        original[index] = 0
        again[index] = 0
      }
    }
    require(again == original, "a \(message.name) at \(offset) re-encodes to other bytes")
    claimed += sent
    offset += message.size
  }
  require(claimed == Array(descriptors.prefix(claimed.count)), "descriptors out of order")

  if let error {
    require(
      error.offset == offset, "the error names byte \(error.offset), the message is at \(offset)")
    require(error.offset <= stream.count, "the error's offset is past the input")
    require(!error.reason.isEmpty && !error.reason.contains("\n"), "an error's reason is one line")
    var failed = whole
    let repeated = Result { () throws(WaylandProtocolError) in
      try failed.next(interfaceOf: { wholeTable.interface(of: $0) })
    }
    require(repeated == .failure(error), "a failed decoder did not fail again with its error")
  } else {
    require(whole.bufferedByteCount == stream.count - offset, "the decoder holds other bytes")
    require(
      whole.pendingDescriptorCount == descriptors.count - claimed.count,
      "the decoder holds \(whole.pendingDescriptorCount) descriptors")
    var ended = whole
    let finished = Result { () throws(WaylandProtocolError) in try ended.finish() }
    switch finished {
    case .success: require(offset == stream.count, "the stream ended inside a message, quietly")
    case .failure(let end):
      require(offset < stream.count && end.offset == offset, "the end is an error between messages")
    }
  }
  var left = whole
  require(
    left.takeDescriptors() == Array(descriptors.dropFirst(claimed.count)),
    "the descriptors left are not the ones no message claimed")

  // What was decoded, written out again, decodes to the same messages.
  let rewritten = messages.map { $0.encoded() }
  var second = WaylandEventDecoder()
  second.feed(rewritten.flatMap(\.bytes), descriptors: rewritten.flatMap(\.descriptors))
  var secondTable = FuzzObjectTable()
  let (reread, rereadError) = drainWayland(&second, &secondTable)
  require(rereadError == nil && reread == messages, "re-encoded messages decode otherwise")
}

/// The objects of a connection after setup, as the state would know them, kept up with the
/// messages decoded: a new offer is an offer, a deleted id is gone.
private struct FuzzObjectTable {
  var objects: [UInt32: WaylandInterface] = [
    2: .registry, 3: .callback, 4: .seat, 5: .manager, 6: .device, 7: .source,
  ]

  func interface(of id: UInt32) -> WaylandInterface? { objects[id] }

  mutating func apply(_ message: WaylandMessage) {
    switch message.event {
    case .dataOffer(let id): objects[id] = .offer
    case .deleteID(let id): objects.removeValue(forKey: id)
    default: break
    }
  }
}

/// The messages a decoder completed, and the error that stopped it, if any.
private func drainWayland(_ decoder: inout WaylandEventDecoder, _ table: inout FuzzObjectTable)
  -> ([WaylandMessage], WaylandProtocolError?)
{
  var messages: [WaylandMessage] = []
  do {
    while let message = try decoder.next(interfaceOf: { [table] in table.interface(of: $0) }) {
      table.apply(message)
      messages.append(message)
    }
    return (messages, nil)
  } catch {
    return (messages, error)
  }
}
