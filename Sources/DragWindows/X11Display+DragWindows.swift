import Pasteboard
import X11Selections

extension X11Display {
  /// Opens a window that takes XDND 5 drops.
  ///
  /// The window is mapped when this returns. On each drop it converts every type the source
  /// offers (meta targets and `XdndDirectSave0` aside), in the source's order, with the drop's
  /// conversion deadlines; the types read become one ``PasteboardItem``, written to
  /// `pasteboard` and reported as ``DropEvent/dropped(_:)``. It accepts any drag that offers
  /// something, and performs copy (link when asked to link; a move is taken as a copy, so
  /// the source never deletes the original).
  ///
  /// - Parameters:
  ///   - title: The window title (`WM_NAME`, `_NET_WM_NAME`); `WM_CLASS` is `ferry`.
  ///   - geometry: Size and position; by default the size fits the text.
  ///   - pasteboard: Where drops go; `nil` for nowhere.
  /// - Returns: The window, and its events.
  /// - Throws: ``X11Error/connectionLost``.
  public func openDropWindow(
    title: String = "ferry drop", geometry: WindowGeometry? = nil,
    pasteboard: Pasteboard? = Pasteboard.drag
  ) async throws -> DropWindow {
    let (controller, events) = try await ControllerHandle.open(on: self) { session, continuation in
      DropWindowController(
        session: session, geometry: geometry, title: title, pasteboard: pasteboard,
        continuation: continuation)
    }
    return DropWindow(controller, events: events)
  }

  /// Opens a window with one draggable entry per element of `entries`.
  ///
  /// Dragging an entry owns `XdndSelection` with the entry's item (served like `CLIPBOARD`:
  /// `TARGETS`, conversions, INCR), publishes its targets in `XdndTypeList`, and grabs the
  /// pointer and keyboard until the release (or Escape). A target that stops answering is
  /// given up on: 1 s for its first answer after the release, 5 s for `XdndFinished`.
  ///
  /// - Parameters:
  ///   - entries: What can be dragged.
  ///   - title: The window title; `WM_CLASS` is `ferry`.
  ///   - geometry: Size and position; by default the size fits the entries.
  ///   - action: The action asked for when no modifier is held.
  /// - Returns: The window, and its events.
  /// - Throws: ``X11Error/connectionLost``.
  public func openDragWindow(
    _ entries: [DragEntry], title: String = "ferry drag", geometry: WindowGeometry? = nil,
    action: DragAction = .copy
  ) async throws -> DragWindow {
    var types: [[String]] = []
    for entry in entries {
      types.append(await DragSource.targets(for: entry.item))
    }
    let targetNames = types
    let (controller, events) = try await ControllerHandle.open(on: self) { session, continuation in
      DragWindowController(
        session: session, entries: entries, types: targetNames, geometry: geometry, title: title,
        action: action, continuation: continuation)
    }
    return DragWindow(controller, events: events)
  }
}
