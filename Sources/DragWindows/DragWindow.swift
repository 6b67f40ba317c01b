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
  /// Drags starting and ending, and the close.
  public let events: AsyncStream<DragEvent>
  private let controller: ControllerHandle<DragWindowController>

  /// The window's id.
  public var window: XWindow { controller.window }

  init(_ controller: ControllerHandle<DragWindowController>, events: AsyncStream<DragEvent>) {
    (self.controller, self.events) = (controller, events)
  }

  /// Where each entry's box is on the screen now, in entry order: where to press to drag it.
  public func entryFrames() async throws -> [ScreenRectangle] {
    try await controller.perform { $0.entryFrames() }
  }

  /// Destroys the window; ``events`` yields ``DragEvent/closed`` and ends.
  public func close() { controller.close() }
}
