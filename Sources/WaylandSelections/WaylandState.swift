import Pasteboard
import SelectionBackend

/// What a ``WaylandConnection`` knows, touched on its thread only: the objects it made or
/// was given, the offers announced and the current one of each selection, Ferry's own
/// sources, and who watches the selections.
final class WaylandState {
  /// What an object id stands for.
  enum Kind {
    case registry, seat, manager, device, source, offer
    /// The `wl_callback` of a setup round trip.
    case setupCallback
    /// The `wl_callback` of ``WaylandConnection/sync()``.
    case syncCallback
  }

  /// Ferry's marker: a MIME type its sources offer, so that the broker tells its own offer
  /// from another program's (and never captures, or fights over, its own copy).
  let marker: String
  var objects: [UInt32: Kind] = [:]
  var registry: UInt32?
  var seat: UInt32?
  /// The manager, `ext` or `wlr`.
  var manager: UInt32?
  /// Whether the manager is `ext-data-control-v1` (else `zwlr_data_control_manager_v1`).
  var isExt = false
  /// The version the manager was bound at; PRIMARY needs 2 with wlr.
  var managerVersion: UInt32 = 0
  var device: UInt32?
  /// Every offer announced and not yet destroyed, with its MIME types in order.
  var offers: [UInt32: [String]] = [:]
  /// The current offer of each selection.
  var current: [SelectionRole: UInt32] = [:]
  /// The current ownership of each selection, counted per selection event.
  var tokens: [SelectionRole: OwnerToken] = [:]
  private var generation: UInt64 = 0
  /// Ferry's sources: what each serves, on which selection.
  var sources: [UInt32: OwnSource] = [:]
  /// Ferry's current source of each selection.
  var ownSource: [SelectionRole: UInt32] = [:]
  /// Selections Ferry cleared and whose `selection(NULL)` is its own doing.
  var clearing: Set<SelectionRole> = []
  var watchers:
    [UInt64: (roles: Set<SelectionRole>, continuation: AsyncStream<OwnerChange>.Continuation)] = [:]
  var syncWaiters: [UInt32: CheckedContinuation<Void, Never>] = [:]
  var lostHandlers: [@Sendable () -> Void] = []
  var setupDone = false
  /// The compositor's `wl_display.error`, which ends the connection.
  var protocolError: String?
  var lost = false
  var closing = false

  /// One of Ferry's sources.
  struct OwnSource {
    var role: SelectionRole
    var item: PasteboardItem
    var table: WaylandOfferTable
    var onLost: @Sendable () -> Void
  }

  init(marker: String) {
    self.marker = marker
  }

  /// Whether PRIMARY can be set: always with ext, from version 2 with wlr.
  var hasPrimary: Bool { isExt || managerVersion >= 2 }

  /// A new offer of `role` (`nil`: the selection was cleared or its owner went away): the
  /// previous offer is destroyed and the watchers hear of it.
  func select(_ role: SelectionRole, _ offer: UInt32?, on wire: WaylandWire) {
    if let previous = current.removeValue(forKey: role), previous != offer {
      destroyOffer(previous, on: wire)
    }
    generation += 1
    let token = OwnerToken(owner: generation, generation: generation)
    let change: OwnerChange
    if let offer, offers[offer] != nil {
      current[role] = offer
      tokens[role] = token
      let own = offers[offer]?.contains(marker) ?? false
      change = OwnerChange(role: role, kind: .newOwner, owner: token, isOwnedByThisProcess: own)
    } else {
      let own = clearing.remove(role) != nil
      change = OwnerChange(
        role: role, kind: .ownerGone, owner: tokens.removeValue(forKey: role) ?? .none,
        isOwnedByThisProcess: own)
    }
    for watcher in watchers.values where watcher.roles.contains(role) {
      watcher.continuation.yield(change)
    }
  }

  /// Destroys an offer (`destroy`, opcode 1 of either protocol's offer).
  func destroyOffer(_ offer: UInt32, on wire: WaylandWire) {
    guard offers.removeValue(forKey: offer) != nil else { return }
    wire.send(offer, 1)
  }

  func finishWatchers() {
    let ending = watchers.values.map(\.continuation)
    watchers = [:]
    ending.forEach { $0.finish() }
  }

  /// Destroys Ferry's objects, as a connection ends (the seat, bound at version 1, has no
  /// destructor; the socket's closing ends it).
  func destroyAll(on wire: WaylandWire) {
    for offer in Array(offers.keys) { destroyOffer(offer, on: wire) }
    current = [:]
    for source in sources.keys { wire.send(source, 1) }
    sources = [:]
    if let device { wire.send(device, 1) }
    device = nil
    if let manager { wire.send(manager, 2) }
    manager = nil
  }
}
