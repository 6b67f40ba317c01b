import X11Selections

/// A window of draggable entries: a press on an entry and a move past the threshold start a
/// ``DragSource`` for that entry's item. Lives on the X thread.
final class DragWindowController: WindowController {
  /// How far the pointer must move with the button down before a drag starts: GTK's default
  /// `gtk-dnd-drag-threshold`, so a click that wobbles is not a drag.
  static let threshold = 8

  static let header = [
    SimpleWindow.Line(text: "Drag an entry onto an application."),
    SimpleWindow.Line(text: "Shift moves, Ctrl+Shift links, Esc cancels."),
  ]

  unowned let session: X11Session
  let view: SimpleWindow
  let entries: [DragEntry]
  /// Each entry's X targets, in order.
  private let types: [[String]]
  private let action: DragAction
  private let continuation: AsyncStream<DragEvent>.Continuation
  private var press: (entry: Int, rootX: Int, rootY: Int)?
  private var drag: DragSource?
  private var dragging: Int?
  private var lastOutcome: String?

  init(
    session: X11Session, entries: [DragEntry], types: [[String]], geometry: WindowGeometry?,
    title: String,
    action: DragAction, continuation: AsyncStream<DragEvent>.Continuation
  ) {
    self.session = session
    self.entries = entries
    self.types = types
    self.action = action
    self.continuation = continuation
    view = SimpleWindow(
      session: session, geometry: geometry, title: title,
      lines: Self.lines(entries: entries, dragging: nil, footer: "Nothing dragged yet."),
      eventMask: [.buttonPress, .buttonRelease, .buttonMotion])
    view.show(handler: { event in self.handle(event) }) {
      continuation.yield(.closed)
      continuation.finish()
    }
  }

  static func lines(entries: [DragEntry], dragging: Int?, footer: String) -> [SimpleWindow.Line] {
    header
      + entries.enumerated().map { index, entry in
        SimpleWindow.Line(text: entry.label, boxed: true, highlighted: index == dragging)
      } + [SimpleWindow.Line(text: footer)]
  }

  /// The root-coordinate frames of the entries' boxes.
  func entryFrames() -> [ScreenRectangle] {
    let origin =
      session.connection.translate(x: 0, y: 0, from: view.window, to: session.connection.root) ?? (
        0, 0, .none
      )
    return entries.indices.map { index in
      let row = view.layout.row(Self.header.count + index, width: view.width)
      return ScreenRectangle(
        x: origin.x + row.x, y: origin.y + row.y, width: row.width, height: row.height)
    }
  }

  /// Destroys the window; the events end with ``DragEvent/closed``.
  func close() {
    view.close()
  }

  private func handle(_ event: X11Event) -> Bool {
    guard drag == nil else { return false }  // the drag's own handler takes pointer events
    switch event {
    case .buttonPress(let pointer) where pointer.window == view.window:
      if pointer.button == 1, let line = view.line(at: pointer.x, pointer.y),
        line >= Self.header.count,
        line - Self.header.count < entries.count
      {
        press = (line - Self.header.count, pointer.rootX, pointer.rootY)
      }
      return true
    case .motion(let pointer) where pointer.window == view.window:
      if let press,
        abs(pointer.rootX - press.rootX) > Self.threshold
          || abs(pointer.rootY - press.rootY) > Self.threshold
      {
        self.press = nil
        start(entry: press.entry, at: pointer)
      }
      return true
    case .buttonRelease(let pointer) where pointer.window == view.window:
      press = nil
      return true
    default:
      return false
    }
  }

  private func start(entry: Int, at pointer: X11Event.Pointer) {
    do {
      drag = try DragSource(
        session: session, grabWindow: view.window, item: entries[entry].item, types: types[entry],
        action: action,
        start: pointer
      ) { outcome in self.ended(entry: entry, outcome) }
    } catch {
      continuation.yield(.couldNotStart(entry: entry, reason: error.description))
      return
    }
    dragging = entry
    continuation.yield(.started(entry: entry))
    view.setLines(Self.lines(entries: entries, dragging: entry, footer: "Dragging..."))
  }

  private func ended(entry: Int, _ outcome: DragOutcome) {
    drag = nil
    dragging = nil
    continuation.yield(.ended(entry: entry, outcome))
    view.setLines(Self.lines(entries: entries, dragging: nil, footer: "Last drag: \(outcome)"))
  }
}
