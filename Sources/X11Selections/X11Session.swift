import FoundationEssentials
import X11Core

/// Everything that lives on the X thread: the connection, the broker's window, the owner and
/// requestor sides of the selection protocols, watchers and timers. Confined to the thread
/// of its ``SelectionLoop``; other threads reach it only through jobs.
///
/// `package` for the windows of `DragWindows`, which live on this thread too: they reach
/// the connection, and take their events with ``addEventHandler(_:)``.
package final class X11Session: X11EventLoopSession {
  /// The connection, for calls on this thread only.
  package let connection: X11Connection
  unowned let loop: SelectionLoop
  /// The window that owns selections and receives conversions.
  let window: XWindow
  /// A window whose only property changes are timestamp requests.
  let clockWindow: XWindow
  private(set) lazy var owner = SelectionOwnerService(session: self)
  private(set) lazy var reader = SelectionReaderService(session: self)
  private(set) lazy var manager = ClipboardManagerService(session: self)
  /// XFixes owner-change streams, by id: the selections each follows, and its continuation.
  var ownerWatchers:
    [UUID: (selections: Set<XAtom>, continuation: AsyncStream<SelectionOwnerChange>.Continuation)] =
      [:]
  /// Extra event handlers (drag and drop); each returns whether it consumed the event.
  private var eventHandlers: [UUID: (X11Event) -> Bool] = [:]
  private var timers = TimerQueue<(X11Session) -> Void>()
  /// The clock the deadlines are measured in.
  let clock: DeadlineClock
  private var watchedSelections = Set<XAtom>()
  /// The latest owner of each watched selection, as XFixes reported it.
  private var ownerships: [XAtom: SelectionOwnership] = [:]
  /// What was learned of the desktop: its window manager, Mutter's selection window.
  var desktop = DesktopFacts()

  /// Makes the session on `connection`, on the X thread of `loop`: the utility windows.
  init(connection: X11Connection, loop: SelectionLoop, clock: DeadlineClock) {
    self.connection = connection
    self.loop = loop
    self.clock = clock
    window = connection.createUtilityWindow()
    clockWindow = connection.createUtilityWindow()
  }

  /// The current server time, for taking ownership and requesting conversions.
  func serverTime() -> XTimestamp {
    connection.serverTime(using: clockWindow) ?? .current
  }

  // MARK: Events

  /// Gives `event` to the extra handlers, then to the selection protocols.
  package func handle(_ event: X11Event) {
    for handler in eventHandlers.values where handler(event) { return }
    switch event {
    case .selectionRequest(let request):
      if !manager.handle(request) { owner.handle(request) }
    case .selectionClear(let selection, let window, let time) where window == self.window:
      if selection == connection.atoms[.clipboardManager] {
        manager.handleClear(time: time)
      } else {
        owner.handleClear(selection: selection, time: time)
      }
    case .selectionNotify(let notify) where notify.requestor == window:
      reader.handle(notify)
    case .propertyNotify(let window, let atom, _, let deleted):
      if window == self.window, !deleted {
        reader.handleNewValue(atom)
      } else if deleted {
        owner.handlePropertyDeleted(window: window, property: atom)
      }
    case .destroyNotify(let window):
      owner.handleDestroyed(window)
    case .ownerChange(let change):
      ownerships[change.selection] =
        change.kind == .newOwner
        ? SelectionOwnership(window: change.owner, since: change.selectionTime) : nil
      let cleared = change.kind == .newOwner && change.owner == .none
      let published = SelectionOwnerChange(
        selection: connection.selection(named: change.selection) ?? "",
        kind: cleared ? .cleared : SelectionOwnerChange.Kind(change.kind),
        owner: change.owner,
        isOwnedByThisProcess: cleared
          ? owner.takeOwnClear(of: change.selection) : change.owner == window,
        time: change.time)
      // A stream hears only of its own selections, whatever others watch on this connection.
      for watcher in ownerWatchers.values where watcher.selections.contains(change.selection) {
        watcher.continuation.yield(published)
      }
    default:
      break
    }
  }

  /// Gives every event to `handler` before the selection protocols see it, until
  /// ``removeEventHandler(_:)``; `handler` returns whether the event was its own. The
  /// session holds `handler`, and what it captures, until then.
  ///
  /// - Returns: The handler's id, for ``removeEventHandler(_:)``.
  package func addEventHandler(_ handler: @escaping (X11Event) -> Bool) -> UUID {
    let id = UUID()
    eventHandlers[id] = handler
    return id
  }

  /// Stops giving events to the handler `id`.
  package func removeEventHandler(_ id: UUID) {
    eventHandlers[id] = nil
  }

  /// `window`'s ownership of `selection`, with the time it took it when XFixes reported it.
  func ownership(of selection: XAtom, by window: XWindow) -> SelectionOwnership {
    if let known = ownerships[selection], known.window == window { return known }
    return SelectionOwnership(window: window)
  }

  /// Starts XFixes owner-change events for `selection` (once).
  func watch(_ selection: XAtom) {
    guard watchedSelections.insert(selection).inserted else { return }
    connection.watchSelection(selection)
  }

  // MARK: Timers

  /// Runs `action` on this thread after `delay` of ``clock``, unless cancelled.
  @discardableResult
  func schedule(after delay: Duration, _ action: @escaping (X11Session) -> Void) -> UUID {
    timers.schedule(at: clock.now() + delay, action)
  }

  func cancelTimer(_ id: UUID?) {
    if let id { timers.cancel(id) }
  }

  /// Runs the timers that are due.
  package func runDueTimers() {
    for action in timers.takeDue(at: clock.now()) { action(self) }
  }

  /// The poll(2) timeout until the next timer, or -1 for none.
  ///
  /// A clock that does not follow real time is looked at again after a short real interval.
  package func millisecondsToNextTimer() -> Int32 {
    guard var remaining = timers.timeToNextDeadline(from: clock.now()) else { return -1 }
    if !clock.followsRealTime { remaining = min(remaining, DeadlineClock.manualClockPollInterval) }
    if remaining <= .zero { return 0 }
    let (seconds, attoseconds) = remaining.components
    return Int32(min(Int64(seconds) * 1000 + attoseconds / 1_000_000_000_000_000 + 1, 60_000))
  }

  // MARK: Ending

  /// Fails every waiting read and ends every stream.
  package func failEverything(with error: X11Error) {
    reader.failAll(with: error)
    owner.dropAll()
    for watcher in ownerWatchers.values { watcher.continuation.finish() }
    ownerWatchers.removeAll()
  }

  /// Destroys the utility windows.
  package func close() {
    connection.destroyWindow(window)
    connection.destroyWindow(clockWindow)
    connection.flush()
  }
}
