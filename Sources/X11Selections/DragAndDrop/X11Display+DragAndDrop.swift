import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import Pasteboard

/// A rectangle on the screen, in root coordinates.
///
/// ```swift
/// let frame = try await dragWindow.entryFrames()[0]
/// print(frame.center)   // where to press to drag the first entry
/// ```
public struct ScreenRectangle: Sendable, Equatable {
  /// The left edge.
  public var x: Int
  /// The top edge.
  public var y: Int
  /// The width, in pixels.
  public var width: Int
  /// The height, in pixels.
  public var height: Int

  /// A rectangle.
  public init(x: Int, y: Int, width: Int, height: Int) {
    (self.x, self.y, self.width, self.height) = (x, y, width, height)
  }

  /// The point in the middle.
  public var center: (x: Int, y: Int) { (x + width / 2, y + height / 2) }
}

/// A window that takes drops from any X application, opened with
/// ``X11Display/openDropWindow(title:geometry:pasteboard:)``.
///
/// ```swift
/// let zone = try await display.openDropWindow(geometry: WindowGeometry("300x200+400+0"))
/// for await event in zone.events {
///   if case .dropped(let drop) = event { print(drop.uris) }
/// }
/// ```
public final class DropWindow: Sendable {
  /// The window's id (it has `XdndAware` = 5).
  public let window: XWindow
  /// What happens to the window: drags entering and leaving, drops, and the close. Ends when
  /// the window closes or the display goes away.
  public let events: AsyncStream<DropEvent>
  private let loop: X11EventLoop
  private let target: XThreadBound<DropTarget>

  init(
    window: XWindow, events: AsyncStream<DropEvent>, loop: X11EventLoop,
    target: XThreadBound<DropTarget>
  ) {
    (self.window, self.events, self.loop, self.target) = (window, events, loop, target)
  }

  /// Destroys the window; ``events`` yields ``DropEvent/closed`` and ends.
  public func close() {
    let target = self.target
    loop.submit { _ in target.value.close() }
  }
}

/// A window of draggable entries, opened with
/// ``X11Display/openDragWindow(_:title:geometry:action:)``.
///
/// A person (or `xdotool`) presses on an entry and moves past 8 pixels; the drag then runs
/// on its own: XDND 5 to whatever window under the pointer has `XdndAware`, the entry's item
/// served on `XdndSelection`. ``events`` says how each drag ended.
///
/// ```swift
/// let window = try await display.openDragWindow([.files([URL(fileURLWithPath: "/etc/hostname")])])
/// for await event in window.events {
///   if case .ended(_, let outcome) = event { print(outcome); break }
/// }
/// ```
public final class DragWindow: Sendable {
  /// The window's id.
  public let window: XWindow
  /// Drags starting and ending, and the close.
  public let events: AsyncStream<DragEvent>
  private let loop: X11EventLoop
  private let controller: XThreadBound<DragWindowController>

  init(
    window: XWindow, events: AsyncStream<DragEvent>, loop: X11EventLoop,
    controller: XThreadBound<DragWindowController>
  ) {
    (self.window, self.events, self.loop, self.controller) = (window, events, loop, controller)
  }

  /// Where each entry's box is on the screen now, in entry order: where to press to drag it.
  public func entryFrames() async throws -> [ScreenRectangle] {
    let controller = self.controller
    return try await loop.perform { _ in controller.value.entryFrames() }
  }

  /// Destroys the window; ``events`` yields ``DragEvent/closed`` and ends.
  public func close() {
    let controller = self.controller
    loop.submit { _ in controller.value.close() }
  }
}

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
    let (events, continuation) = AsyncStream<DropEvent>.makeStream()
    loop.onConnectionLost { continuation.finish() }
    let (window, target) = try await loop.perform { session in
      let target = DropTarget(
        session: session, geometry: geometry, title: title, pasteboard: pasteboard,
        continuation: continuation)
      session.connection.sync()
      return (target.view.window, XThreadBound(target))
    }
    return DropWindow(window: window, events: events, loop: loop, target: target)
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
      types.append(await TargetTable.make(for: entry.item).entries.map(\.name))
    }
    let (events, continuation) = AsyncStream<DragEvent>.makeStream()
    loop.onConnectionLost { continuation.finish() }
    let targetNames = types
    let (window, controller) = try await loop.perform { session in
      let controller = DragWindowController(
        session: session, entries: entries, types: targetNames, geometry: geometry, title: title,
        action: action,
        continuation: continuation)
      session.connection.sync()
      return (controller.view.window, XThreadBound(controller))
    }
    return DragWindow(window: window, events: events, loop: loop, controller: controller)
  }
}
