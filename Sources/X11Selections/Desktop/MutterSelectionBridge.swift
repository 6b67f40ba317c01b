import SelectionBackendCore
import X11Core

/// GNOME's compositor, Mutter, as an X client of its own Xwayland: how it bridges the Wayland
/// selections to X and back, and what Ferry does about it (docs/DESKTOPS.md).
///
/// Mutter keeps one owner registry for every selection (`MetaSelection`, since 3.34). When a
/// Wayland program, the Shell or Mutter's own clipboard manager owns a selection, Mutter owns
/// the X selection on a window of its own (1×1, `InputOnly`, override-redirect, at −1,−1) and
/// answers `TARGETS` with its list of MIME types; when an X program owns it, Mutter reads its
/// `TARGETS` into property `META_SELECTION` and offers that list to Wayland programs. Both
/// lists are built by prepending (mutter 43.8, `copy_string_array_to_list` in
/// `meta-selection-source-wayland.c`, `atoms_to_mimetypes` in `meta-selection-source-x11.c`),
/// so each crossing turns the owner's order round. Ferry turns it back both ways.
public enum MutterSelectionBridge {
  /// The property Mutter converts X selections into (`meta-x11-selection-input-stream.c`): a
  /// `TARGETS` request into it is Mutter making the Wayland offer of an X owner's copy.
  public static let property = "META_SELECTION"

  /// The names Mutter adds to the MIME types it lists for X readers, in the order it appends
  /// them (`mimetypes_to_bytes` in `meta-x11-selection.c`): each alias only when its MIME type
  /// is listed and it is not.
  static let aliases: [(alias: String, of: String)] = [
    ("UTF8_STRING", "text/plain;charset=utf-8"), ("STRING", "text/plain"),
  ]

  /// The names Mutter always appends.
  static let trailer = ["TARGETS", "TIMESTAMP"]

  /// `listed` (the `TARGETS` of Mutter's own window) split into the MIME types of the owner,
  /// in the order Mutter listed them, and what Mutter appended: `TARGETS`, `TIMESTAMP`, and
  /// an alias only where Mutter adds one — at the end, its MIME type listed before it.
  static func split(_ listed: [String]) -> (types: [String], appended: [String]) {
    var types = listed
    var appended: [String] = []
    for name in trailer.reversed() where types.last == name {
      appended.insert(types.removeLast(), at: 0)
    }
    for (alias, mime) in aliases.reversed()
    where types.last == alias && types.dropLast().contains(mime) {
      appended.insert(types.removeLast(), at: 0)
    }
    return (types, appended)
  }

  /// The owner's order of `listed`, the `TARGETS` of Mutter's own window: the MIME types in
  /// the order the Wayland program offered them (Mutter lists them reversed), then the
  /// aliases and meta targets Mutter appended.
  public static func ownerOrder(_ listed: [String]) -> [String] {
    let (types, appended) = split(listed)
    return types.reversed() + appended
  }

  /// Whether `listed` (the `TARGETS` of Mutter's own window) is the list of Mutter's clipboard
  /// manager restoring a copy whose owner went away: exactly one MIME type, text or an image,
  /// the only kinds it keeps (`meta-clipboard-manager.c`), with Mutter's own additions. A
  /// program's own `UTF8_STRING` beside its text is not Mutter's (Mutter adds none then), so
  /// such a copy is not taken for a restore; a program offering one image type alone is
  /// indistinguishable from the restore, and is replaced only when its bytes are the held
  /// copy's own (docs/DESKTOPS.md).
  public static func isKeptCopy(_ listed: [String]) -> Bool {
    let types = split(listed).types
    guard types.count == 1, let type = types.first else { return false }
    return type == "text/plain" || type == "text/plain;charset=utf-8" || type.hasPrefix("image/")
  }

  /// What Ferry answers Mutter's `TARGETS` with when it owns a selection: `names` (Ferry's
  /// targets, in Ferry's order) without those only X programs know (meta targets, Ferry's
  /// mark, and the X text names where the MIME type is offered too), reversed, so that the list Mutter makes
  /// of it by prepending is in Ferry's order, and Wayland programs see MIME types only.
  public static func targetsForMutter(_ names: [String]) -> [String] {
    let offered = Set(names)
    let textNames: [String: String] = [
      "UTF8_STRING": "text/plain;charset=utf-8", "TEXT": "text/plain;charset=utf-8",
      "COMPOUND_TEXT": "text/plain;charset=utf-8", "STRING": "text/plain",
    ]
    let meta: Set<String> = ["TARGETS", "TIMESTAMP", "MULTIPLE", "SAVE_TARGETS"]
    return names.filter { name in
      // Ferry's mark is for the bridges that hand a copy back (sway's); Mutter never does.
      if meta.contains(name) || FerryMarker.isMarker(name) { return false }
      if let mime = textNames[name], offered.contains(mime) { return false }
      return true
    }.reversed()
  }

  /// Whether `shape` is that of the window Mutter owns selections with
  /// (`meta_x11_selection_init`): 1×1, `InputOnly`, override-redirect, at −1,−1.
  static func isSelectionWindow(_ shape: X11Connection.WindowShape) -> Bool {
    shape.x == -1 && shape.y == -1 && shape.width == 1 && shape.height == 1 && shape.isInputOnly
      && shape.isOverrideRedirect
  }

  /// Whether the window manager named `name` is Mutter (`GNOME Shell` is Mutter too).
  static func isMutter(windowManager name: String?) -> Bool {
    name == "Mutter" || name == "GNOME Shell"
  }
}
