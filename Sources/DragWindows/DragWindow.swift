import X11Selections

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
  private let thread: XThread
  private let controller: XThreadBound<DragWindowController>

  init(
    window: XWindow, events: AsyncStream<DragEvent>, thread: XThread,
    controller: XThreadBound<DragWindowController>
  ) {
    (self.window, self.events, self.thread, self.controller) = (window, events, thread, controller)
  }

  /// Where each entry's box is on the screen now, in entry order: where to press to drag it.
  public func entryFrames() async throws -> [ScreenRectangle] {
    let controller = self.controller
    return try await thread.perform { _ in controller.value.entryFrames() }
  }

  /// Destroys the window; ``events`` yields ``DragEvent/closed`` and ends.
  public func close() {
    let controller = self.controller
    thread.submit { _ in controller.value.close() }
  }
}
