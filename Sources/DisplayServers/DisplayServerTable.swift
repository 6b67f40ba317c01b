import SelectionBackendCore
import WaylandSelections
import X11Selections

/// The display servers Ferry bridges, in the order they are tried: the one table the broker
/// (which opens every kind its environment names) and the command-line tools (which use the
/// first) consult. docs/SELECTION-BACKENDS.md says how to add a row.
public enum DisplayServerTable {
  /// Wayland first, as wl-clipboard does (under XWayland the Wayland selection is the one every
  /// program sees), then X11.
  public static let standard: [DisplayServerKind] = [.wayland, .x11]

  /// The first row of `table` whose display `environment` names, and that display.
  public static func first(
    of table: [DisplayServerKind] = standard, in environment: [String: String]
  ) -> (kind: DisplayServerKind, display: String)? {
    for kind in table {
      if let display = kind.display(in: environment) { return (kind, display) }
    }
    return nil
  }

  /// "neither WAYLAND_DISPLAY nor DISPLAY is set": what to say when no row's variable is.
  public static func nothingNamed(in table: [DisplayServerKind] = standard) -> String {
    let names = table.map(\.environmentVariable)
    switch names.count {
    case 0: return "no display server is known"
    case 1: return "\(names[0]) is not set"
    case 2: return "neither \(names[0]) nor \(names[1]) is set"
    default: return "none of \(names.joined(separator: ", ")) is set"
    }
  }
}

extension DisplayServerKind {
  /// X11, through `DISPLAY`: ICCCM selections, XFixes for owner changes. A display that
  /// cannot be opened stops the broker, as it always did.
  public static let x11 = DisplayServerKind(
    name: "X11", environmentVariable: "DISPLAY", protocolName: "ICCCM selections",
    isRequired: true
  ) { display, options throws(BackendError) in
    let backend = try X11SelectionBackend(displayName: display)
    await backend.display.setServingStepTimeout(options.servingStepTimeout)
    return backend
  }

  /// Wayland, through `WAYLAND_DISPLAY`: the data-control protocol (ext-data-control-v1, or
  /// wlr's v2). A compositor without it (GNOME's Mutter, weston) is one line in the log.
  public static let wayland = DisplayServerKind(
    name: "Wayland", environmentVariable: "WAYLAND_DISPLAY", protocolName: "data-control"
  ) { display, options throws(BackendError) in
    try WaylandSelectionBackend(socket: display, servingStepTimeout: options.servingStepTimeout)
  }
}
