import X11Selections

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
  /// What happens to the window: drags entering and leaving, drops, and the close. Ends when
  /// the window closes or the display goes away.
  public let events: AsyncStream<DropEvent>
  private let controller: ControllerHandle<DropWindowController>

  /// The window's id (it has `XdndAware` = 5).
  public var window: XWindow { controller.window }

  init(_ controller: ControllerHandle<DropWindowController>, events: AsyncStream<DropEvent>) {
    (self.controller, self.events) = (controller, events)
  }

  /// Destroys the window; ``events`` yields `DropEvent.closed` and ends.
  public func close() { controller.close() }
}
