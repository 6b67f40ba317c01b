import FerrySystem
import SelectionBackendCore

/// A backend's connection to its compositor and the watchers of its owner changes, which
/// it tells until the connection is lost; then its lost handlers are told, once.
///
/// The link does not connect again: the broker's `DisplaySupervisor` does, for every kind of
/// display alike, with a new backend whose bindings serve the pasteboard's copy again. That
/// also covers the compositor that drops a client whose socket is full: libwayland 1.21's
/// servers (sway 1.7's) disconnect any client whose socket is full at the moment they write
/// to it, and an owner that offers 20,000 types makes the compositor write some 900 KB to
/// every data-control client at once; on a busy machine no client drains it in time, Ferry
/// included, and the supervisor is back 100 ms later.
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

  /// A link over `connection`.
  init(_ connection: WaylandConnection) {
    shared = TrackedMutex(Shared(connection: connection))
    watch(connection)
  }

  /// The connection now.
  var connection: WaylandConnection { shared.withLock { $0.connection } }

  /// Why the connection was lost, if it was.
  var failure: String? { connection.failure }

  /// Follows the owner changes of `roles` on the connection, until
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

  /// Calls `handler` once, when the connection is lost.
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

  // MARK: Watching

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

  /// `connection` was lost: the link ends, unless it was closed first.
  private func lost(_ connection: WaylandConnection) {
    let current = shared.withLock { $0.connection === connection && !$0.closed && !$0.ended }
    if current { end() }
  }

  /// The connection is lost: its lost handlers are told, its watchers' streams finish.
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
