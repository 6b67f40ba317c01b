import FoundationEssentials
import RasterDrawing
import X11Selections

/// A plain top-level window that shows lines of text with the server's default font: the
/// face of `ferry drop` and `ferry drag`. Lives on the X thread.
///
/// Lines are drawn top to bottom, one row each; a boxed line is outlined (a draggable entry),
/// a highlighted one twice as thick (the entry being dragged). The window redraws itself on
/// `Expose`, keeps its size from `ConfigureNotify`, and closes when the window manager asks.
final class SimpleWindow {
  /// One line of text (shared with the client-drawn windows).
  typealias Line = TextRow
  /// Where lines sit (shared with the client-drawn windows).
  typealias Layout = TextRowLayout

  unowned let session: X11Session
  let window: XWindow
  let layout: Layout
  private let atoms: WindowAtoms
  private(set) var width: Int
  private(set) var height: Int
  private(set) var lines: [Line]
  private var handlerID: UUID?
  private var onClose: () -> Void = {}

  /// Creates and maps a top-level window.
  ///
  /// - Parameters:
  ///   - geometry: The user's geometry; what is missing comes from the lines' size.
  ///   - title: `WM_NAME` and `_NET_WM_NAME`.
  ///   - lines: What it shows first.
  ///   - eventMask: Events to select beyond exposure and structure.
  init(
    session: X11Session, geometry: WindowGeometry?, title: String, lines: [Line],
    eventMask: XWindow.EventMask = []
  ) {
    self.session = session
    let connection = session.connection
    atoms = WindowAtoms(connection)
    let metrics = connection.defaultFontMetrics()
    layout = Layout(ascent: metrics.ascent, descent: metrics.descent, characterWidth: metrics.width)
    self.lines = lines
    let preferred = layout.preferredSize(for: lines.map(\.text))
    let frame = (geometry ?? WindowGeometry()).frame(
      defaultSize: preferred, screen: connection.screenSize)
    (width, height) = (frame.width, frame.height)
    window = connection.createTopLevelWindow(
      x: frame.x, y: frame.y, width: frame.width, height: frame.height,
      eventMask: eventMask.union([.exposure, .structureNotify]))
    connection.describeTopLevelWindow(
      window, atoms: atoms, title: title, className: "ferry", x: frame.x, y: frame.y,
      width: frame.width, height: frame.height, userPlaced: geometry?.hasPosition ?? false)
  }

  /// Maps the window and takes its events until ``close()``: exposure and size changes it
  /// handles itself, the window manager's close request closes it, and every other event
  /// goes to `handler`, which returns whether it was one it took. The session keeps the
  /// window, and what `handler` and `onClose` hold, until then.
  ///
  /// - Parameters:
  ///   - handler: The owner's events (pointer, XDND messages).
  ///   - onClose: Called once the window is gone, however it closed.
  func show(handler: @escaping (X11Event) -> Bool, onClose: @escaping () -> Void) {
    self.onClose = onClose
    handlerID = session.addEventHandler { event in
      if self.handle(event) { return true }
      if self.isCloseRequest(event) {
        self.close()
        return true
      }
      return handler(event)
    }
    session.connection.mapWindow(window)
    session.connection.flush()
  }

  /// Destroys the window, stops its events and calls `onClose`; once.
  func close() {
    guard let handlerID else { return }
    session.removeEventHandler(handlerID)
    self.handlerID = nil
    session.connection.destroyWindow(window)
    session.connection.flush()
    let onClose = self.onClose
    self.onClose = {}
    onClose()
  }

  /// Replaces the lines and redraws.
  func setLines(_ lines: [Line]) {
    guard lines != self.lines else { return }
    self.lines = lines
    redraw()
  }

  /// Draws every line.
  func redraw() {
    let connection = session.connection
    connection.clearWindow(window)
    for (index, line) in lines.enumerated() {
      let row = layout.row(index, width: width)
      if line.boxed {
        connection.drawRectangle(
          window, x: row.x, y: row.y, width: row.width, height: row.height,
          thickness: line.highlighted ? 3 : 1)
      }
      let origin = layout.textOrigin(ofRow: index, width: width)
      connection.drawString(
        window, x: origin.x, y: origin.baseline,
        latin1: layout.fitted(line.text, width: row.width))
    }
    connection.flush()
  }

  /// The line at window coordinates `(x, y)`, if any.
  func line(at x: Int, _ y: Int) -> Int? {
    layout.row(at: x, y, width: width, count: lines.count)
  }

  /// Handles this window's exposure and size changes; `true` when the event was one.
  private func handle(_ event: X11Event) -> Bool {
    switch event {
    case .expose(let window, let count) where window == self.window:
      if count == 0 { redraw() }
      return true
    case .configure(let window, let width, let height) where window == self.window:
      (self.width, self.height) = (width, height)
      return true
    default:
      return false
    }
  }

  /// Whether `event` is the window manager asking to close this window.
  private func isCloseRequest(_ event: X11Event) -> Bool {
    guard case .clientMessage(let message) = event, message.window == window,
      message.type == atoms[.wmProtocols]
    else { return false }
    return UInt(UInt32(truncatingIfNeeded: message.data[0])) == atoms[.wmDeleteWindow].rawValue
  }
}
