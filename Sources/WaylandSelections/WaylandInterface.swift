/// The interfaces Ferry speaks, each with the signatures of its events: what the event decoder
/// needs to read a message's arguments, and to refuse one that does not fit.
///
/// The signatures are those of `wayland.xml` (display, registry, callback, seat) and of the
/// data-control protocols, whose wlr and ext names carry the same events in the same order
/// (docs/SELECTION-BACKENDS.md). A manager has no events.
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

  /// The events, by opcode.
  package var events: [EventSignature] {
    switch self {
    case .display:
      [
        EventSignature(
          name: "error",
          arguments: [.object(nil, nullable: false), .uint, .string(nullable: false)]
        ),
        EventSignature(name: "delete_id", arguments: [.uint]),
      ]
    case .registry:
      [
        EventSignature(name: "global", arguments: [.uint, .string(nullable: false), .uint]),
        EventSignature(name: "global_remove", arguments: [.uint]),
      ]
    case .callback:
      [EventSignature(name: "done", arguments: [.uint])]
    case .seat:
      [
        EventSignature(name: "capabilities", arguments: [.uint]),
        EventSignature(name: "name", arguments: [.string(nullable: false)]),
      ]
    case .manager:
      []
    case .device:
      [
        EventSignature(name: "data_offer", arguments: [.newID(.offer)]),
        EventSignature(name: "selection", arguments: [.object(.offer, nullable: true)]),
        EventSignature(name: "finished", arguments: []),
        EventSignature(name: "primary_selection", arguments: [.object(.offer, nullable: true)]),
      ]
    case .source:
      [
        EventSignature(name: "send", arguments: [.string(nullable: false), .descriptor]),
        EventSignature(name: "cancelled", arguments: []),
      ]
    case .offer:
      [EventSignature(name: "offer", arguments: [.string(nullable: false)])]
    }
  }
}
