import Pasteboard
import X11Selections

/// A window that takes drops: a ``SimpleWindow`` whose XDND messages go to a `DropTarget`,
/// and which says what the last drop held. Lives on the X thread.
final class DropWindowController: WindowController {
  static let introduction = [
    SimpleWindow.Line(text: "Drop files or text here."),
    SimpleWindow.Line(text: "Each drop goes to the drag pasteboard."),
  ]

  let view: SimpleWindow
  /// Set once in `init`, after the window it needs.
  private var target: DropTarget?
  private let continuation: AsyncStream<DropEvent>.Continuation
  private var dropCount = 0

  init(
    session: X11Session, geometry: WindowGeometry?, title: String, pasteboard: Pasteboard?,
    continuation: AsyncStream<DropEvent>.Continuation
  ) {
    self.continuation = continuation
    let view = SimpleWindow(
      session: session, geometry: geometry, title: title,
      lines: Self.introduction + [SimpleWindow.Line(text: "Nothing dropped yet.")])
    self.view = view
    // Weak: a conversion that ends after the window is gone reports to nobody.
    target = DropTarget(
      session: session, window: view.window, size: { (view.width, view.height) },
      pasteboard: pasteboard
    ) { [weak self] event in self?.report(event) }
    view.show(handler: { event in self.target?.handle(event) ?? false }) {
      continuation.yield(.closed)
      continuation.finish()
    }
  }

  /// Destroys the window; the events end with `DropEvent.closed`.
  func close() {
    view.close()
  }

  private func report(_ event: DropEvent) {
    switch event {
    case .dropped(let drop):
      dropCount += 1
      continuation.yield(event)
      view.setLines(Self.introduction + Self.summary(of: drop, number: dropCount))
    case .failed:
      continuation.yield(event)
      view.setLines(
        Self.introduction + [SimpleWindow.Line(text: "The last drop could not be read.")])
    case .entered, .left, .closed:
      continuation.yield(event)
    }
  }

  /// What the window shows about a drop: a count, then the URIs or the text.
  static func summary(of drop: Drop, number: Int) -> [SimpleWindow.Line] {
    var lines = [
      SimpleWindow.Line(
        text:
          "Drop \(number): \(drop.received.count) of \(drop.offered.count) types (\(drop.action.rawValue)):"
      )
    ]
    let shown =
      drop.uris.isEmpty ? (drop.text ?? "").split(separator: "\n").map(String.init) : drop.uris
    for line in shown.prefix(4) { lines.append(SimpleWindow.Line(text: "  " + line)) }
    if shown.count > 4 {
      lines.append(SimpleWindow.Line(text: "  ... and \(shown.count - 4) more"))
    }
    return lines
  }
}
