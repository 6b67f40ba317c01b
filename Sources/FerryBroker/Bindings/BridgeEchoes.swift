import FerrySystem
import Pasteboard
import SelectionBackend

/// The copies one display server's binding recorded, told to the other bindings of the same
/// pasteboard: under XWayland with an X window focused, the compositor bridges the clipboard
/// itself (its XWayland window manager owns `CLIPBOARD` for the Wayland owner, or offers the
/// X owner's copy on Wayland), so the copy one binding just recorded comes back to the other
/// moments later from a new owner — under more types or fewer, as the compositor converts
/// them. That is one copy, not two.
///
/// A capture is such an echo when the pasteboard's top item was recorded by another binding
/// less than ``window`` ago and the two agree, byte for byte, on every type both have (at
/// least one). The window keeps a person's own copy of the same text with new types (the
/// same words copied again as rich text, seconds later) a change of its own.
final class BridgeEchoes: Sendable {
  /// How long after one binding records a copy another may see it come back: the
  /// compositor's bridge answers within milliseconds; a person copying again takes longer.
  static let window: Duration = .seconds(2)

  private struct Recorded {
    var item: ObjectIdentifier
    var binding: ObjectIdentifier
    var at: ContinuousClock.Instant
  }

  private let last = TrackedMutex<Recorded?>(nil)
  /// Held while a binding decides about a capture and writes it, so that two bindings' captures
  /// of one copy, ending together, are decided one after the other: the second sees the first.
  private let deciding = TrackedMutex(())

  /// The captures in progress, by the order they began in, with their bindings.
  private let open = TrackedMutex<(next: Int, tickets: [Int: ObjectIdentifier])>((0, [:]))

  /// Runs `body` while no other binding of the pasteboard decides about a capture. Taken
  /// before a binding's policy lock, never inside it.
  func deciding<T>(_ body: () -> T) -> T {
    deciding.withLock { _ in body() }
  }

  /// `binding` begins a capture: its ticket, for ``waitForEarlierCaptures(than:of:within:)``
  /// and ``ended(_:)``.
  func began(by binding: AnyObject) -> Int {
    open.withLock { open in
      open.next += 1
      open.tickets[open.next] = ObjectIdentifier(binding)
      return open.next
    }
  }

  /// The capture of `ticket` was decided (or dropped).
  func ended(_ ticket: Int) {
    _ = open.withLock { $0.tickets.removeValue(forKey: ticket) }
  }

  /// Waits, at most `limit`, until no other binding's capture that began before `ticket` is
  /// still open: the compositor's bridge echoes a copy after its owner appeared on the other
  /// side, so the original, seen first, is decided first, and its echo is then known as one.
  ///
  /// Polls every 2 ms: the wait is rare (two display servers' captures at once) and short
  /// (the other capture's own reads, each bounded by its step timeout).
  ///
  /// - Returns: `true` when no earlier capture of another binding is open; `false` when
  ///   `limit` passed first (the capture is decided anyway).
  @discardableResult
  func waitForEarlierCaptures(than ticket: Int, of binding: AnyObject, within limit: Duration)
    async -> Bool
  {
    let me = ObjectIdentifier(binding)
    let deadline = ContinuousClock.now + limit
    while true {
      let waiting = open.withLock { open in
        open.tickets.contains { $0.key < ticket && $0.value != me }
      }
      guard waiting else { return true }
      guard ContinuousClock.now < deadline else { return false }
      try? await Task.sleep(for: .milliseconds(2))
    }
  }

  /// `binding` recorded `item` now.
  func recorded(_ item: PasteboardItem, by binding: AnyObject) {
    let recorded = Recorded(
      item: ObjectIdentifier(item), binding: ObjectIdentifier(binding), at: .now)
    last.withLock { $0 = recorded }
  }

  /// Whether `capture`, ended in `binding`, is the echo of `top`: recorded by another binding
  /// within ``window``, and holding the same bytes under every type both have.
  func isEcho(_ capture: OfferCapture, of top: PasteboardItem, in binding: AnyObject) -> Bool {
    let fresh = last.withLock { last -> Bool in
      guard let last, last.item == ObjectIdentifier(top) else { return false }
      return last.binding != ObjectIdentifier(binding) && last.at.duration(to: .now) < Self.window
    }
    return fresh && Self.agree(top, capture)
  }

  /// Whether `item` and `capture` hold the same bytes under every type both have, and have
  /// one at least.
  static func agree(_ item: PasteboardItem, _ capture: OfferCapture) -> Bool {
    guard capture.isComplete else { return false }
    var shared = 0
    for entry in capture.entries {
      guard case .data(let stored)? = item.storedPayload(for: entry.target.type) else { continue }
      guard stored == entry.data else { return false }
      shared += 1
    }
    return shared > 0
  }
}
