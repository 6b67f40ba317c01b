/// One event as it came off the wire: its object, the object's interface, its opcode and its
/// arguments as the interface's signature reads them, and where in the stream it lay.
///
/// ``WaylandEventDecoder`` makes them; ``event`` is the typed view the connection handles;
/// ``encoded()`` writes the message back as the wire carries it.
package struct WaylandMessage: Equatable, Sendable {
  /// The object the event is for.
  package var object: UInt32
  /// The object's interface.
  package var interface: WaylandInterface
  /// The event's opcode within the interface.
  package var opcode: UInt16
  /// The arguments, in the signature's order.
  package var arguments: [WaylandArgument]
  /// Where the message's header began, counted in bytes from the start of the stream.
  package var offset: Int
  /// The message's size, header included, as its header says.
  package var size: Int

  /// Creates a message.
  package init(
    object: UInt32, interface: WaylandInterface, opcode: UInt16, arguments: [WaylandArgument],
    offset: Int = 0, size: Int? = nil
  ) {
    self.object = object
    self.interface = interface
    self.opcode = opcode
    self.arguments = arguments
    self.offset = offset
    self.size = size ?? 0
    if size == nil { self.size = encoded().bytes.count }
  }

  /// The event's name in its interface's protocol (`data_offer`, `send`).
  package var name: String { interface.events[Int(opcode)].name }

  /// The message as the wire carries it: its bytes (string padding zeroed) and the
  /// descriptors that go beside them.
  package func encoded() -> (bytes: [UInt8], descriptors: [Int32]) {
    var body: [UInt8] = []
    var descriptors: [Int32] = []
    func word(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { body += $0 } }
    for argument in arguments {
      switch argument {
      case .uint(let value), .object(let value), .newID(let value): word(value)
      case .int(let value): word(UInt32(bitPattern: value))
      case .string(nil): word(0)
      case .string(let bytes?):
        word(UInt32(bytes.count + 1))
        body += bytes
        body += [UInt8](repeating: 0, count: 4 - bytes.count % 4)  // the NUL and the padding
      case .descriptor(let descriptor): descriptors.append(descriptor)
      }
    }
    var bytes: [UInt8] = []
    withUnsafeBytes(of: object.littleEndian) { bytes += $0 }
    withUnsafeBytes(of: (UInt32(8 + body.count) << 16 | UInt32(opcode)).littleEndian) {
      bytes += $0
    }
    return (bytes + body, descriptors)
  }

  /// The byte ranges of ``encoded()`` that the wire leaves unspecified: the padding after each
  /// string's NUL (libwayland's servers send whatever their buffer held there).
  package var paddingRanges: [Range<Int>] {
    var offset = 8
    var ranges: [Range<Int>] = []
    for argument in arguments {
      switch argument {
      case .string(let bytes?):
        let end = offset + 4 + ((bytes.count + 4) & ~3)
        let padding = (offset + 4 + bytes.count + 1)..<end
        if !padding.isEmpty { ranges.append(padding) }
        offset = end
      case .descriptor: break
      default: offset += 4
      }
    }
    return ranges
  }
}

/// One argument of an event.
package enum WaylandArgument: Equatable, Sendable {
  case uint(UInt32)
  case int(Int32)
  /// A string's bytes without its NUL; `nil` is the null string.
  case string([UInt8]?)
  /// An object id; 0 is the null object.
  case object(UInt32)
  /// The id of an object the server made.
  case newID(UInt32)
  /// A descriptor that came beside the bytes.
  case descriptor(Int32)
}
