/// The interfaces Ferry speaks, each with the signatures of its events: what the event decoder
/// needs to read a message's arguments, and to refuse one that does not fit.
///
/// The signatures (``events``) are generated from `wayland.xml` (display, registry, callback,
/// seat) and the data-control protocols, whose wlr and ext names carry the same requests and
/// events in the same order (`Scripts/generate-wayland-swift` checks it). A manager has no
/// events.
package enum WaylandInterface: String, Sendable, CaseIterable {
  case display = "wl_display"
  case registry = "wl_registry"
  case callback = "wl_callback"
  case seat = "wl_seat"
  case manager = "data_control_manager"
  case device = "data_control_device"
  case source = "data_control_source"
  case offer = "data_control_offer"

  /// One argument's kind on the wire.
  package enum ArgumentKind: Sendable, Equatable {
    case uint
    case int
    /// A string; a non-nullable one may not be the null string (length 0).
    case string(nullable: Bool)
    /// An object id of `interface` (`nil`: any), or 0 when `nullable`.
    case object(WaylandInterface?, nullable: Bool)
    /// A new object the server made: an id in the server's range (from 0xFF000000).
    case newID(WaylandInterface)
    /// A descriptor, sent beside the bytes (SCM_RIGHTS): no bytes of the message.
    case descriptor
  }

  /// One event's name and arguments, in order.
  package struct EventSignature: Sendable {
    package var name: String
    package var arguments: [ArgumentKind]
  }
}

/// The opcode of a request or an event of one interface, as `WaylandProtocol.swift` (made by
/// `Scripts/generate-wayland-swift` from the vendored XML) names them.
package protocol WaylandOpcode: RawRepresentable, Sendable where RawValue == UInt16 {}
