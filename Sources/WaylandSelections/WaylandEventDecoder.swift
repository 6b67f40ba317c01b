/// Reads the compositor's stream into events: bytes and descriptors in, ``WaylandMessage``s
/// or a ``WaylandProtocolError`` out. A value, with no socket: the connection feeds it what
/// arrives, and the tests and the fuzz target feed it anything.
///
/// ```swift
/// var decoder = WaylandEventDecoder()
/// decoder.feed(bytes, descriptors: descriptors)
/// while let message = try decoder.next(interfaceOf: { state.interface(of: $0) }) { … }
/// ```
///
/// Every message is checked against its interface's signature before an argument is read:
/// its size (a whole header at least, whole 32-bit words, at most
/// ``maximumMessageSize``), its object (one this client knows), its opcode (an event the
/// interface has), each argument within the message, each string NUL-terminated within it
/// with no NUL inside, each object argument of the interface the signature names, each new
/// id in the server's range, each promised descriptor present, and no byte left after the
/// last argument. Nothing past a message's end is read. The first fault ends the stream: the
/// decoder fails with the same error from then on, and holds its descriptors for the caller
/// to close (``takeDescriptors()``).
package struct WaylandEventDecoder: Sendable {
  /// A message header: the object id, then the size and opcode.
  package static let headerSize = 8
  /// The largest message a compositor sends: libwayland's connection buffer, 4096 bytes, which
  /// its servers cannot exceed (`WL_MAX_MESSAGE_SIZE`).
  package static let maximumMessageSize = 4096
  /// The most descriptors that may wait for the events that claim them: libwayland sends at
  /// most 28 with one `sendmsg`, and a connection dispatches what it read before reading more.
  package static let maximumPendingDescriptors = 64
  /// The first id of the objects the server makes.
  package static let firstServerID: UInt32 = 0xFF00_0000

  private var buffer: [UInt8] = []
  /// The first byte of `buffer` not yet handed out.
  private var start = 0
  private var descriptors: [Int32] = []
  private var firstDescriptor = 0
  private var failure: WaylandProtocolError?

  /// Where the next message begins, in bytes from the start of the stream.
  package private(set) var offset = 0

  /// Creates a decoder at the start of a stream.
  package init() {}

  /// The bytes fed and not yet handed out as messages.
  package var bufferedByteCount: Int { buffer.count - start }

  /// The descriptors fed and not yet handed out with a message.
  package var pendingDescriptorCount: Int { descriptors.count - firstDescriptor }

  /// Whether the decoder has failed (and says so from every ``next(interfaceOf:)``).
  package var hasFailed: Bool { failure != nil }

  /// Adds what arrived: bytes of the stream, and the descriptors that came with them.
  package mutating func feed(_ bytes: some Collection<UInt8>, descriptors: [Int32] = []) {
    if start > 0, start >= buffer.count / 2 {
      buffer.removeFirst(start)
      start = 0
    }
    buffer.append(contentsOf: bytes)
    if firstDescriptor > 0, firstDescriptor >= self.descriptors.count / 2 {
      self.descriptors.removeFirst(firstDescriptor)
      firstDescriptor = 0
    }
    self.descriptors += descriptors
  }

  /// The next whole message, or `nil` until more bytes come.
  ///
  /// - Parameter interfaceOf: The interface of each object this client knows (the display,
  ///   id 1, is known already); `nil` for an id it never made or has forgotten.
  /// - Throws: ``WaylandProtocolError`` for the first message that breaks the protocol, and
  ///   the same error for every call after.
  package mutating func next(interfaceOf: (UInt32) -> WaylandInterface?)
    throws(WaylandProtocolError) -> WaylandMessage?
  {
    if let failure { throw failure }
    do {
      return try decode(interfaceOf)
    } catch {
      failure = error
      throw error
    }
  }

  /// The stream ended (the compositor closed the connection).
  ///
  /// - Throws: ``WaylandProtocolError`` when it ended inside a message, or the decoder had
  ///   failed.
  package mutating func finish() throws(WaylandProtocolError) {
    if let failure { throw failure }
    guard bufferedByteCount > 0 else { return }
    var said = ""
    if bufferedByteCount >= Self.headerSize {
      said = " of the \(Int(word(at: start + 4) >> 16)) its header announced"
    }
    let error = WaylandProtocolError(
      at: offset,
      "the connection closed \(bufferedByteCount) bytes into a message\(said)")
    failure = error
    throw error
  }

  /// Takes the descriptors no message claimed, for the caller to close.
  package mutating func takeDescriptors() -> [Int32] {
    defer {
      descriptors = []
      firstDescriptor = 0
    }
    return Array(descriptors[firstDescriptor...])
  }

  // MARK: Decoding

  private mutating func decode(_ interfaceOf: (UInt32) -> WaylandInterface?)
    throws(WaylandProtocolError) -> WaylandMessage?
  {
    func fail(_ reason: String) -> WaylandProtocolError { WaylandProtocolError(at: offset, reason) }
    if pendingDescriptorCount > Self.maximumPendingDescriptors {
      throw fail(
        "\(pendingDescriptorCount) descriptors came that no event claims (at most \(Self.maximumPendingDescriptors) may wait)"
      )
    }
    guard bufferedByteCount >= Self.headerSize else { return nil }
    let object = word(at: start)
    let header = word(at: start + 4)
    let size = Int(header >> 16)
    let opcode = UInt16(header & 0xFFFF)
    guard size >= Self.headerSize else {
      throw fail("a message of \(size) bytes, shorter than its \(Self.headerSize)-byte header")
    }
    guard size % 4 == 0 else {
      throw fail("a message of \(size) bytes, not a whole number of 32-bit words")
    }
    guard size <= Self.maximumMessageSize else {
      throw fail(
        "a message of \(size) bytes, past the largest a compositor sends (\(Self.maximumMessageSize))"
      )
    }
    guard let interface = object == 1 ? .display : interfaceOf(object) else {
      throw fail("an event for object \(object), which this client never made")
    }
    let events = interface.events
    guard Int(opcode) < events.count else {
      throw fail(
        "event \(opcode) of \(interface.rawValue) \(object), which has \(events.count) event\(events.count == 1 ? "" : "s")"
      )
    }
    guard bufferedByteCount >= size else { return nil }  // the rest is on its way
    let signature = events[Int(opcode)]
    let what = "\(interface.rawValue).\(signature.name)"
    let end = start + size
    var cursor = start + Self.headerSize
    var arguments: [WaylandArgument] = []
    var claimed = 0
    for (index, kind) in signature.arguments.enumerated() {
      if kind == .descriptor {
        guard claimed < pendingDescriptorCount else {
          throw fail("\(what) promises a descriptor that did not come with it")
        }
        arguments.append(.descriptor(descriptors[firstDescriptor + claimed]))
        claimed += 1
        continue
      }
      guard cursor + 4 <= end else {
        throw fail(
          "\(what) of \(size) bytes ends before its argument \(index + 1) of \(signature.arguments.count)"
        )
      }
      let value = word(at: cursor)
      cursor += 4
      switch kind {
      case .uint: arguments.append(.uint(value))
      case .int: arguments.append(.int(Int32(bitPattern: value)))
      case .object(let wanted, let nullable):
        if value == 0 {
          guard nullable else { throw fail("\(what) names the null object, which it may not") }
        } else if let wanted, interfaceOf(value) != wanted {
          throw fail("\(what) names object \(value), which is not a \(wanted.rawValue)")
        }
        arguments.append(.object(value))
      case .newID:
        guard value >= Self.firstServerID else {
          throw fail(
            "\(what) makes object \(value), outside the server's ids (from \(Self.firstServerID))")
        }
        arguments.append(.newID(value))
      case .string(let nullable):
        let length = Int(value)
        if length == 0 {
          guard nullable else { throw fail("\(what) sends the null string, which it may not") }
          arguments.append(.string(nil))
          continue
        }
        let padded = (length + 3) & ~3
        guard padded <= end - cursor else {
          throw fail(
            "\(what) sends a string of \(length) bytes, past the message's end (\(end - cursor) bytes left)"
          )
        }
        guard buffer[cursor + length - 1] == 0 else {
          throw fail("\(what) sends a string of \(length) bytes not ended by a NUL")
        }
        let text = buffer[cursor..<(cursor + length - 1)]
        guard !text.contains(0) else {
          throw fail("\(what) sends a string of \(length) bytes with a NUL inside")
        }
        arguments.append(.string(Array(text)))
        cursor += padded
      case .descriptor: break
      }
    }
    guard cursor == end else {
      throw fail("\(what) of \(size) bytes has \(end - cursor) bytes after its last argument")
    }
    let message = WaylandMessage(
      object: object, interface: interface, opcode: opcode, arguments: arguments, offset: offset,
      size: size)
    start = end
    offset += size
    firstDescriptor += claimed
    return message
  }

  private func word(at index: Int) -> UInt32 {
    UInt32(buffer[index]) | UInt32(buffer[index + 1]) << 8 | UInt32(buffer[index + 2]) << 16
      | UInt32(buffer[index + 3]) << 24
  }
}
