import FerrySystem
import Pasteboard
import SelectionBackendCore

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
    /// When, as the time since the echoes were made on their clock.
    var at: Duration
  }

  /// The captures in progress, by the order they began in, with their bindings; and the
  /// waiters to wake when one ends.
  private struct Open {
    var next = 0
    var tickets: [Int: ObjectIdentifier] = [:]
    var nextWaiter = 0
    /// How many captures have ended: a waiter that saw another count missed no wake-up.
    var endings = 0
    var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
  }

  private let last = TrackedMutex<Recorded?>(nil)
  /// Held while a binding decides about a capture and writes it, so that two bindings' captures
  /// of one copy, ending together, are decided one after the other: the second sees the first.
  private let deciding = TrackedMutex(())
  private let open = TrackedMutex(Open())
  /// The time since the echoes were made, on their clock.
  private let elapsed: @Sendable () -> Duration
  /// Sleeps for a duration on the echoes' clock (throws when cancelled).
  private let pause: @Sendable (Duration) async throws -> Void

  /// Echoes timed on `clock`: a test's `ManualClock`, or by default the timer thread's
  /// (docs/ARCHITECTURE.md, "Threads").
  init<C: Clock>(clock: C) where C.Duration == Duration {
    let start = clock.now
    elapsed = { start.duration(to: clock.now) }
    pause = { try await clock.sleep(for: $0) }
  }

  /// Echoes timed on the timer thread's clock.
  convenience init() { self.init(clock: .timerThread) }

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

  /// The capture of `ticket` was decided (or dropped): whoever waits for it looks again.
  func ended(_ ticket: Int) {
    let waiters = open.withLock { open in
      open.tickets.removeValue(forKey: ticket)
      open.endings += 1
      defer { open.waiters = [:] }
      return Array(open.waiters.values)
    }
    waiters.forEach { $0.resume() }
  }

  /// Waits, at most `limit` on the echoes' clock, until no other binding's capture that began
  /// before `ticket` is still open: the compositor's bridge echoes a copy after its owner
  /// appeared on the other side, so the original, seen first, is decided first, and its echo
  /// is then known as one. Woken by ``ended(_:)``, not by polling.
  ///
  /// - Returns: `true` when no earlier capture of another binding is open; `false` when
  ///   `limit` passed first (the capture is decided anyway), or the task was cancelled.
  @discardableResult
  func waitForEarlierCaptures(than ticket: Int, of binding: AnyObject, within limit: Duration)
    async -> Bool
  {
    let me = ObjectIdentifier(binding)
    let deadline = elapsed() + limit
    while true {
      let waiting = open.withLock { open -> (waiter: Int, endings: Int)? in
        guard open.tickets.contains(where: { $0.key < ticket && $0.value != me }) else {
          return nil
        }
        open.nextWaiter += 1
        return (open.nextWaiter, open.endings)
      }
      guard let (waiter, endings) = waiting else { return true }
      let left = deadline - elapsed()
      guard left > .zero, !Task.isCancelled else { return false }
      let woken = await withTaskGroup(of: Bool.self) { group in
        group.addTask { await self.nextEnd(waiter, after: endings) }
        group.addTask {
          do { try await self.pause(left) } catch { return false }
          return false
        }
        let first = await group.next() ?? false
        group.cancelAll()
        return first
      }
      if !woken { open.withLock { _ = $0.waiters.removeValue(forKey: waiter) } }
    }
  }

  /// Waits until a capture ends after `endings` had (or the task is cancelled): `true` when
  /// one ended.
  private func nextEnd(_ waiter: Int, after endings: Int) async -> Bool {
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let ready = open.withLock { open -> Bool in
          // Ended meanwhile, or cancelled before waiting: the ticket check runs again.
          if open.endings != endings || Task.isCancelled { return true }
          open.waiters[waiter] = continuation
          return false
        }
        if ready { continuation.resume() }
      }
      return !Task.isCancelled
    } onCancel: {
      open.withLock { $0.waiters.removeValue(forKey: waiter) }?.resume()
    }
  }

  /// `binding` recorded `item` now.
  func recorded(_ item: PasteboardItem, by binding: AnyObject) {
    let recorded = Recorded(
      item: ObjectIdentifier(item), binding: ObjectIdentifier(binding), at: elapsed())
    last.withLock { $0 = recorded }
  }

  /// Whether `capture`, ended in `binding`, is the echo of `top`: recorded by another binding
  /// within ``window``, and holding the same bytes under every type both have.
  func isEcho(_ capture: OfferCapture, of top: PasteboardItem, in binding: AnyObject) -> Bool {
    let fresh = last.withLock { last -> Bool in
      guard let last, last.item == ObjectIdentifier(top) else { return false }
      return last.binding != ObjectIdentifier(binding) && elapsed() - last.at < Self.window
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
