/// What an event says, typed: the view of a ``WaylandMessage`` the connection handles.
///
/// Strings are as the compositor sent them, read as UTF-8 with any invalid byte replaced (a
/// MIME type is the owner's to name; a name that is not UTF-8 costs its owner that type, not
/// Ferry its connection).
package enum WaylandEvent: Equatable, Sendable {
  /// `wl_display.error`: the compositor ends the connection.
  case error(object: UInt32, code: UInt32, message: String)
  /// `wl_display.delete_id`: an id of this client's may be used again.
  case deleteID(UInt32)
  /// `wl_registry.global`.
  case global(name: UInt32, interface: String, version: UInt32)
  /// `wl_registry.global_remove`.
  case globalRemove(name: UInt32)
  /// `wl_callback.done`.
  case done
  /// `wl_seat.capabilities` or `wl_seat.name`: nothing Ferry needs.
  case seat
  /// `data_offer`: a new offer, `id`, whose types follow.
  case dataOffer(UInt32)
  /// `selection`: the clipboard's offer, or `nil` when it was cleared.
  case selection(UInt32?)
  /// `finished`: the device is no longer valid.
  case finished
  /// `primary_selection`: the primary selection's offer, or `nil`.
  case primarySelection(UInt32?)
  /// `offer`: one MIME type of an offer.
  case offer(String)
  /// `send`: a reader wants one of Ferry's sources as `mimeType`, written to `descriptor`.
  case send(mimeType: String, descriptor: Int32)
  /// `cancelled`: one of Ferry's sources was replaced.
  case cancelled
}

extension WaylandMessage {
  /// The typed view of the message. The decoder has checked the arguments against the
  /// signature, so every case finds the arguments it reads.
  package var event: WaylandEvent {
    func uint(_ index: Int) -> UInt32 {
      switch arguments[index] {
      case .uint(let value), .object(let value), .newID(let value): value
      case .int(let value): UInt32(bitPattern: value)
      case .string, .descriptor: 0
      }
    }
    func string(_ index: Int) -> String {
      guard case .string(let bytes?) = arguments[index] else { return "" }
      return String(decoding: bytes, as: UTF8.self)
    }
    func descriptor(_ index: Int) -> Int32 {
      guard case .descriptor(let descriptor) = arguments[index] else { return -1 }
      return descriptor
    }
    func object(_ index: Int) -> UInt32? {
      let id = uint(index)
      return id == 0 ? nil : id
    }
    // The decoder took only opcodes the interface has (its signatures are the same XML's).
    switch interface {
    case .display:
      switch WaylandDisplayEvent(rawValue: opcode) {
      case .error: return .error(object: uint(0), code: uint(1), message: string(2))
      case .deleteID, nil: return .deleteID(uint(0))
      }
    case .registry:
      switch WaylandRegistryEvent(rawValue: opcode) {
      case .global: return .global(name: uint(0), interface: string(1), version: uint(2))
      case .globalRemove, nil: return .globalRemove(name: uint(0))
      }
    case .callback: return .done
    case .seat, .manager: return .seat
    case .device:
      switch DataControlDeviceEvent(rawValue: opcode) {
      case .dataOffer: return .dataOffer(uint(0))
      case .selection: return .selection(object(0))
      case .finished: return .finished
      case .primarySelection, nil: return .primarySelection(object(0))
      }
    case .source:
      switch DataControlSourceEvent(rawValue: opcode) {
      case .send: return .send(mimeType: string(0), descriptor: descriptor(1))
      case .cancelled, nil: return .cancelled
      }
    case .offer: return .offer(string(0))
    }
  }
}
