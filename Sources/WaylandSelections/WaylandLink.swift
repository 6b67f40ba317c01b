import FerrySystem
import SelectionBackend

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A backend's connection to its compositor, made again when the compositor drops it while
/// it still runs: the watchers of owner changes carry on across, and hear what the new
/// connection finds.
///
/// libwayland 1.21's servers (sway 1.7's) disconnect any client whose socket is full at the
/// moment they write to it, and an owner that offers 20,000 types makes the compositor write
/// some 900 KB to every data-control client at once: on a busy machine no client is scheduled
/// in time to drain it, Ferry included. Without a new connection the broker would have lost
/// Wayland for good to one hostile copy; with one, that copy costs the moments until the
/// next. The link tries again at once, then every quarter second while the compositor accepts
/// connections (a connection that is dropped again as it sets up, while the hostile copy is
/// current, is tried again), and gives up once it refuses eight times in a row (it is gone):
/// then the lost handlers are told. A connection made on a test's socket pair is never made
/// again.
final class WaylandLink: Sendable {
  private struct Shared {
    var connection: WaylandConnection
    var watchers:
      [UInt64: (roles: Set<SelectionRole>, continuation: AsyncStream<OwnerChange>.Continuation)] =
        [:]
    var lostHandlers: [@Sendable () -> Void] = []
    var closed = false
    /// Lost for good.
    var ended = false
  }

  private let shared: TrackedMutex<Shared>
  /// The compositor to connect to again; `nil` for a connection that cannot be made again.
  private let socket: String??
  private let servingStepTimeout: Duration

  /// A link over `first`; `socket` is what `first` was connected to, or `nil` when it cannot
  /// be connected to again (an already-connected socket).
  init(_ first: WaylandConnection, socket: String??, servingStepTimeout: Duration) {
    shared = TrackedMutex(Shared(connection: first))
    self.socket = socket
    self.servingStepTimeout = servingStepTimeout
    watch(first)
  }

  /// The connection now.
  var connection: WaylandConnection { shared.withLock { $0.connection } }

  /// Why the link ended for good, or why its connection was last lost.
  var failure: String? { connection.failure }

  /// Follows the owner changes of `roles` on every connection of the link, until
  /// ``removeWatcher(_:)`` or the link's end.
  func addWatcher(
    _ id: UInt64, roles: Set<SelectionRole>,
    continuation: AsyncStream<OwnerChange>.Continuation
  ) {
    let connection = shared.withLock { shared -> WaylandConnection? in
      guard !shared.ended, !shared.closed else { return nil }
      shared.watchers[id] = (roles, continuation)
      return shared.connection
    }
    guard let connection else { return continuation.finish() }
    subscribe(connection, id, roles, continuation)
  }

  /// Stops telling watcher `id`.
  func removeWatcher(_ id: UInt64) {
    let connection = shared.withLock { shared in
      shared.watchers.removeValue(forKey: id)
      return shared.connection
    }
    connection.submit { $0.state.watchers.removeValue(forKey: id) }
  }

  /// Calls `handler` once, when the link is lost for good.
  func onLost(_ handler: @escaping @Sendable () -> Void) {
    let ended = shared.withLock { shared in
      if !shared.ended { shared.lostHandlers.append(handler) }
      return shared.ended
    }
    if ended { handler() }
  }

  /// Ends the link: its connection closes, its watchers' streams finish.
  func close() {
    let (connection, watchers) = shared.withLock { shared in
      shared.closed = true
      shared.lostHandlers = []
      defer { shared.watchers = [:] }
      return (shared.connection, shared.watchers.values.map(\.continuation))
    }
    connection.close()
    watchers.forEach { $0.finish() }
  }

  // MARK: Connecting again

  private func subscribe(
    _ connection: WaylandConnection, _ id: UInt64, _ roles: Set<SelectionRole>,
    _ continuation: AsyncStream<OwnerChange>.Continuation
  ) {
    connection.submit { connection in
      guard !connection.state.lost else { return }
      connection.state.watchers[id] = (roles, { continuation.yield($0) })
    }
  }

  /// Hears of `connection`'s loss (the handler holds the link weakly: the link holds the
  /// connection).
  private func watch(_ connection: WaylandConnection) {
    let handler: @Sendable () -> Void = { [weak self, weak connection] in
      guard let self, let connection else { return }
      self.lost(connection)
    }
    connection.submit { connection in
      if connection.state.lost { handler() } else { connection.state.lostHandlers.append(handler) }
    }
  }

  /// `connection` was lost: it is made again, on a thread of its own, or the link ends.
  private func lost(_ connection: WaylandConnection) {
    let current = shared.withLock { $0.connection === connection && !$0.closed && !$0.ended }
    guard current else { return }
    guard let socket else { return end() }
    let started = DetachedThread.start(name: "ferry-wl-again") { [self] in reconnect(to: socket) }
    if !started { end() }
  }

  /// Tries to connect again until it succeeds, the link is closed, or the compositor refuses
  /// eight times in a row.
  private func reconnect(to socket: String?) {
    var refused = 0
    var attempt = 0
    while !shared.withLock({ $0.closed }) {
      let delay = [0, 50_000, 100_000][safe: attempt] ?? 250_000
      attempt += 1
      if delay > 0 { usleep(useconds_t(delay)) }
      do {
        let connection = try WaylandConnection(
          socket: socket, servingStepTimeout: servingStepTimeout)
        return install(connection)
      } catch .cannotConnect(let reason) where reason.hasPrefix("cannot connect to the Wayland") {
        refused += 1
        if refused >= 8 { return end() }
      } catch {
        refused = 0  // it accepted, then dropped Ferry as it set up: still there
      }
    }
  }

  /// `connection` replaces the lost one: the watchers follow it and hear what it found.
  private func install(_ connection: WaylandConnection) {
    let watchers = shared.withLock {
      shared -> [(UInt64, Set<SelectionRole>, AsyncStream<OwnerChange>.Continuation)]? in
      guard !shared.closed else { return nil }
      shared.connection = connection
      return shared.watchers.map { ($0.key, $0.value.roles, $0.value.continuation) }
    }
    guard let watchers else { return connection.close() }
    watch(connection)
    for (id, roles, continuation) in watchers { subscribe(connection, id, roles, continuation) }
    // The selections the new connection found as it set up are news to the watchers.
    connection.submit { connection in
      for role in [SelectionRole.clipboard, .primary] {
        let change = connection.state.currentChange(of: role)
        for watcher in connection.state.watchers.values where watcher.roles.contains(role) {
          watcher.yield(change)
        }
      }
    }
  }

  /// The link is lost for good: its lost handlers are told, its watchers' streams finish.
  private func end() {
    let (handlers, watchers) = shared.withLock { shared in
      shared.ended = true
      defer {
        shared.lostHandlers = []
        shared.watchers = [:]
      }
      return (shared.lostHandlers, shared.watchers.values.map(\.continuation))
    }
    handlers.forEach { $0() }
    watchers.forEach { $0.finish() }
  }
}

extension Array {
  fileprivate subscript(safe index: Int) -> Element? {
    indices.contains(index) ? self[index] : nil
  }
}
