import Testing
import WaylandSelections

/// The event decoder as a value: well-formed events read back to what was written, and each
/// malformed one is refused with an error naming the message's offset and what was wrong —
/// never a trap, never a read past the message, never a wait for bytes that cannot come.
@Suite struct WaylandEventDecoderTests {
  /// The objects of a connection after setup, as the decoder looks them up.
  static let objects: [UInt32: WaylandInterface] = [
    2: .registry, 3: .callback, 4: .seat, 5: .manager, 6: .device, 7: .source,
    0xFF00_0000: .offer,
  ]

  /// Every message of `bytes`, and the error that stopped the decoder, if any.
  static func decode(
    _ bytes: [UInt8], descriptors: [Int32] = [], objects: [UInt32: WaylandInterface] = objects
  )
    -> (messages: [WaylandMessage], error: WaylandProtocolError?, decoder: WaylandEventDecoder)
  {
    var decoder = WaylandEventDecoder()
    decoder.feed(bytes, descriptors: descriptors)
    var messages: [WaylandMessage] = []
    do {
      while let message = try decoder.next(interfaceOf: { objects[$0] }) {
        messages.append(message)
      }
      return (messages, nil, decoder)
    } catch {
      return (messages, error, decoder)
    }
  }

  @Test func aSessionReadsBackToItsEvents() throws {
    let bytes =
      WaylandBytes.message(object: 2, opcode: 0, [.uint(1), .string("wl_seat"), .uint(7)])
      + WaylandBytes.message(object: 6, opcode: 0, [.uint(0xFF00_0000)])
      + WaylandBytes.message(object: 0xFF00_0000, opcode: 0, [.string("text/plain;charset=utf-8")])
      + WaylandBytes.message(object: 6, opcode: 1, [.uint(0xFF00_0000)])
      + WaylandBytes.message(object: 7, opcode: 0, [.string("UTF8_STRING")])
      + WaylandBytes.message(object: 3, opcode: 0, [.uint(0)])
      + WaylandBytes.message(object: 1, opcode: 1, [.uint(3)])
    let (messages, error, decoder) = Self.decode(bytes, descriptors: [42])
    #expect(error == nil)
    #expect(
      messages.map(\.event) == [
        .global(name: 1, interface: "wl_seat", version: 7), .dataOffer(0xFF00_0000),
        .offer("text/plain;charset=utf-8"), .selection(0xFF00_0000),
        .send(mimeType: "UTF8_STRING", descriptor: 42), .done, .deleteID(3),
      ])
    #expect(messages.flatMap { $0.encoded().bytes } == bytes, "each re-encodes to its bytes")
    #expect(messages.last.map { $0.offset + $0.size } == bytes.count)
    #expect(decoder.bufferedByteCount == 0 && decoder.pendingDescriptorCount == 0)
  }

  @Test func aMessageInPiecesWaitsForItsEnd() throws {
    let bytes = WaylandBytes.message(object: 0xFF00_0000, opcode: 0, [.string("image/png")])
    var decoder = WaylandEventDecoder()
    for byte in bytes.dropLast() {
      decoder.feed([byte])
      #expect(try decoder.next(interfaceOf: { Self.objects[$0] }) == nil)
    }
    decoder.feed([bytes.last!])
    #expect(try decoder.next(interfaceOf: { Self.objects[$0] })?.event == .offer("image/png"))
  }

  /// A malformed stream and the words its error must say.
  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    var says: String
    /// Where the faulty message begins.
    var offset: Int
    var testDescription: String { name }
  }

  static let selection = WaylandBytes.message(object: 6, opcode: 0, [.uint(0xFF00_0001)])

  static let cases: [Case] = [
    Case(
      name: "a size shorter than the header",
      bytes: WaylandBytes.message(object: 6, opcode: 1, [.uint(0)], size: 4),
      says: "shorter than its 8-byte header", offset: 0),
    Case(
      name: "a size of zero", bytes: WaylandBytes.message(object: 6, opcode: 1, size: 0),
      says: "a message of 0 bytes", offset: 0),
    Case(
      name: "a size past the largest message",
      bytes: selection + WaylandBytes.message(object: 0xFF00_0000, opcode: 0, size: 65532),
      says: "a message of 65532 bytes, past the largest a compositor sends (4096)",
      offset: selection.count),
    Case(
      name: "a size not of whole words",
      bytes: WaylandBytes.message(object: 6, opcode: 2, size: 10),
      says: "not a whole number of 32-bit words", offset: 0),
    Case(
      name: "an object never made", bytes: WaylandBytes.message(object: 99, opcode: 0),
      says: "an event for object 99, which this client never made", offset: 0),
    Case(
      name: "the null object", bytes: WaylandBytes.message(object: 0, opcode: 0),
      says: "an event for object 0", offset: 0),
    Case(
      name: "an opcode past the device's events",
      bytes: WaylandBytes.message(object: 6, opcode: 4),
      says: "event 4 of data_control_device 6, which has 4 events", offset: 0),
    Case(
      name: "an event for the manager, which has none",
      bytes: WaylandBytes.message(object: 5, opcode: 0),
      says: "event 0 of data_control_manager 5, which has 0 events", offset: 0),
    Case(
      name: "a send whose descriptor never came",
      bytes: WaylandBytes.message(object: 7, opcode: 0, [.string("text/plain")]),
      says: "data_control_source.send promises a descriptor that did not come with it", offset: 0),
    Case(
      name: "a string without its NUL",
      bytes: WaylandBytes.message(
        object: 0xFF00_0000, opcode: 0, [.uint(4), .raw(Array("text".utf8))]),
      says: "a string of 4 bytes not ended by a NUL", offset: 0),
    Case(
      name: "a string longer than its message",
      bytes: WaylandBytes.message(
        object: 0xFF00_0000, opcode: 0, [.uint(65536), .raw(Array("text".utf8))]),
      says: "a string of 65536 bytes, past the message's end (4 bytes left)", offset: 0),
    Case(
      name: "a MIME name of 64 KiB",
      bytes: WaylandBytes.message(
        object: 0xFF00_0000, opcode: 0, [.string(String(repeating: "x", count: 65536))]),
      // Its size does not fit the header's 16 bits: it says 16, and the string overruns it.
      says: "a string of 65537 bytes, past the message's end (4 bytes left)", offset: 0),
    Case(
      name: "a string with a NUL inside",
      bytes: WaylandBytes.message(
        object: 0xFF00_0000, opcode: 0,
        [.uint(8), .raw(Array("text\0png".utf8)), .raw([0, 0, 0, 0])]),
      says: "not ended by a NUL", offset: 0),
    Case(
      name: "an inner NUL",
      bytes: WaylandBytes.message(
        object: 0xFF00_0000, opcode: 0, [.uint(8), .raw(Array("tex\0png\0".utf8))]),
      says: "with a NUL inside", offset: 0),
    Case(
      name: "the null string for a MIME type",
      bytes: WaylandBytes.message(object: 0xFF00_0000, opcode: 0, [.uint(0)]),
      says: "data_control_offer.offer sends the null string", offset: 0),
    Case(
      name: "arguments missing",
      bytes: WaylandBytes.message(object: 2, opcode: 0, [.uint(1)]),
      says: "wl_registry.global of 12 bytes ends before its argument 2 of 3", offset: 0),
    Case(
      name: "bytes after the last argument",
      bytes: WaylandBytes.message(object: 3, opcode: 0, [.uint(0), .uint(0)]),
      says: "has 4 bytes after its last argument", offset: 0),
    Case(
      name: "a selection naming the seat",
      bytes: WaylandBytes.message(object: 6, opcode: 1, [.uint(4)]),
      says: "data_control_device.selection names object 4, which is not a data_control_offer",
      offset: 0),
    Case(
      name: "a new offer with a client's id",
      bytes: WaylandBytes.message(object: 6, opcode: 0, [.uint(8)]),
      says: "makes object 8, outside the server's ids", offset: 0),
  ]

  @Test(arguments: cases) func aMalformedEventIsRefusedSayingWhatWasWrong(_ test: Case) throws {
    let (_, error, decoder) = Self.decode(test.bytes)
    let refused = try #require(error, "\(test.name) was accepted")
    #expect(refused.reason.contains(test.says), "\(refused)")
    #expect(refused.offset == test.offset)
    #expect(refused.description.hasPrefix("the Wayland compositor sent a malformed event at byte"))
    // A failed decoder stays failed, with the same error.
    var again = decoder
    #expect(throws: refused) { try again.next(interfaceOf: { Self.objects[$0] }) }
  }

  @Test func aDescriptorIsTakenOnlyByTheMessageThatClaimsIt() {
    let send = WaylandBytes.message(object: 7, opcode: 0, [.string("text/plain")])
    let (messages, error, decoder) = Self.decode(send + send, descriptors: [10])
    #expect(messages.map(\.event) == [.send(mimeType: "text/plain", descriptor: 10)])
    #expect(
      error?.offset == send.count, "the second send has no descriptor: \(String(describing: error))"
    )
    var failed = decoder
    #expect(failed.takeDescriptors().isEmpty)
  }

  @Test func descriptorsNoEventClaimsAreRefusedPastTheLimit() {
    let count = WaylandEventDecoder.maximumPendingDescriptors + 1
    let (_, error, decoder) = Self.decode([], descriptors: Array(100..<Int32(100 + count)))
    #expect(error?.reason.contains("\(count) descriptors came that no event claims") == true)
    var failed = decoder
    #expect(failed.takeDescriptors().count == count, "the caller closes them")
  }

  @Test func theStreamEndingInsideAMessageIsAnError() throws {
    let offer = WaylandBytes.message(object: 0xFF00_0000, opcode: 0, [.string("text/plain")])
    var decoder = WaylandEventDecoder()
    decoder.feed(offer + offer.prefix(6))
    #expect(try decoder.next(interfaceOf: { Self.objects[$0] }) != nil)
    #expect(try decoder.next(interfaceOf: { Self.objects[$0] }) == nil)
    let error = try #require(throws: WaylandProtocolError.self) { try decoder.finish() }
    #expect(error.offset == offer.count)
    #expect(error.reason == "the connection closed 6 bytes into a message")
    var whole = WaylandEventDecoder()
    whole.feed(offer + offer.prefix(10))
    _ = try whole.next(interfaceOf: { Self.objects[$0] })
    let said = try #require(throws: WaylandProtocolError.self) { try whole.finish() }
    #expect(
      said.reason == "the connection closed 10 bytes into a message of the 24 its header announced")
  }

  @Test func theStreamEndingBetweenMessagesIsNoError() throws {
    var decoder = WaylandEventDecoder()
    decoder.feed(WaylandBytes.message(object: 6, opcode: 2))
    #expect(try decoder.next(interfaceOf: { Self.objects[$0] })?.event == .finished)
    try decoder.finish()
  }

  @Test func stringPaddingIsReadWhateverItHolds() throws {
    // libwayland's servers send the bytes after a string's NUL as their buffer held them.
    var bytes = WaylandBytes.message(object: 0xFF00_0000, opcode: 0, [.string("png")])
    #expect(bytes.count == 16)
    let (messages, error, _) = Self.decode(bytes)
    #expect(error == nil && messages.first?.paddingRanges.isEmpty == true)
    bytes = WaylandBytes.message(object: 0xFF00_0000, opcode: 0, [.string("image/png")])
    bytes[bytes.count - 1] = 0xAA
    bytes[bytes.count - 2] = 0x55
    let padded = Self.decode(bytes)
    #expect(padded.error == nil)
    #expect(padded.messages.first?.event == .offer("image/png"))
    #expect(padded.messages.first?.paddingRanges == [(bytes.count - 2)..<bytes.count])
  }
}
