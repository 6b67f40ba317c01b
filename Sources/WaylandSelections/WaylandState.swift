import FerrySystem
import Pasteboard
import SelectionBackendCore

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
  /// Every offer announced and not yet destroyed, with its MIME types in order: the first
  /// ``OwnerOffer/maximumTargets`` and the well-known ones after (an offer destroyed keeps its
  /// id in ``objects``, whose events are then ignored, until the server reuses it).
  var offers: [UInt32: [String]] = [:]
  /// How many types each offer announced, kept or not.
  var offerTypeCounts: [UInt32: Int] = [:]
  /// The current offer of each selection.
  var current: [SelectionRole: UInt32] = [:]
  /// The current ownership of each selection, counted per selection event.
  var tokens: [SelectionRole: OwnerToken] = [:]
  /// Selection events counted across every connection of the process: a connection made
  /// again never hands out a token an earlier one did (the broker would take it for the same
  /// ownership, told twice).
  private static let generations = TrackedMutex<UInt64>(0)
  /// Ferry's sources: what each serves, on which selection.
  var sources: [UInt32: OwnSource] = [:]
  /// Ferry's current source of each selection.
  var ownSource: [SelectionRole: UInt32] = [:]
  /// Selections Ferry cleared and whose `selection(NULL)` is its own doing.
  var clearing: Set<SelectionRole> = []
  /// Who hears of owner changes, and of which selections (the backend's link forwards them to
  /// its streams, which outlive a connection).
  var watchers: [UInt64: (roles: Set<SelectionRole>, yield: @Sendable (OwnerChange) -> Void)] =
    [:]
  var syncWaiters: [UInt32: CheckedContinuation<Void, Never>] = [:]
  var lostHandlers: [@Sendable () -> Void] = []
  var setupDone = false
  /// The compositor's `wl_display.error`, which ends the connection.
  var protocolError: String?
  /// Why the connection ended, for people: the compositor's error, a message that broke the
  /// protocol, the socket's end.
  var failure: String?
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

  /// The most offers announced and not yet destroyed: a compositor announces one just before
  /// the selection event that makes it current (two at once with PRIMARY), and Ferry destroys
  /// the one it replaces; a compositor past this is broken or hostile.
  static let maximumLiveOffers = 64

  /// The interface of object `id`, for the event decoder; `nil` for an id this client never
  /// made or that the server deleted.
  func interface(of id: UInt32) -> WaylandInterface? {
    switch objects[id] {
    case .registry?: .registry
    case .seat?: .seat
    case .manager?: .manager
    case .device?: .device
    case .source?: .source
    case .offer?: .offer
    case .setupCallback?, .syncCallback?: .callback
    case nil: nil
    }
  }

  /// The server announced offer `id` (`data_offer`).
  ///
  /// - Throws: ``WaylandProtocolError`` when `id` is a live offer already, or the compositor
  ///   has more than ``maximumLiveOffers`` live.
  func announceOffer(_ id: UInt32, at offset: Int) throws(WaylandProtocolError) {
    guard offers[id] == nil else {
      throw WaylandProtocolError(at: offset, "data_offer makes offer \(id), which is live already")
    }
    guard offers.count < Self.maximumLiveOffers else {
      throw WaylandProtocolError(
        at: offset,
        "data_offer makes a live offer past the \(Self.maximumLiveOffers) that no selection took")
    }
    objects[id] = .offer
    offers[id] = []
    offerTypeCounts[id] = 0
  }

  /// One MIME type of offer `id`: kept among the first ``OwnerOffer/maximumTargets``, or past
  /// them if well known; an offer already destroyed ignores it.
  func addType(_ type: String, to id: UInt32) {
    guard let count = offerTypeCounts[id] else { return }
    offerTypeCounts[id] = count + 1
    if count < OwnerOffer.maximumTargets || OwnerOffer.isKeptPastTheLimit(type) {
      offers[id, default: []].append(type)
    }
  }

  /// Whether PRIMARY can be set: always with ext, from version 2 with wlr.
  var hasPrimary: Bool { isExt || managerVersion >= 2 }

  /// A new offer of `role` (`nil`: the selection was cleared or its owner went away): the
  /// previous offer is destroyed and the watchers hear of it.
  func select(_ role: SelectionRole, _ offer: UInt32?, on wire: WaylandWire) {
    if let previous = current.removeValue(forKey: role), previous != offer {
      destroyOffer(previous, on: wire)
    }
    let generation = Self.generations.withLock { count in
      count += 1
      return count
    }
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
      watcher.yield(change)
    }
  }

  /// Destroys an offer (`destroy`, opcode 1 of either protocol's offer).
  func destroyOffer(_ offer: UInt32, on wire: WaylandWire) {
    offerTypeCounts.removeValue(forKey: offer)
    guard offers.removeValue(forKey: offer) != nil else { return }
    wire.send(offer, DataControlOfferRequest.destroy)
  }

  /// The connection ends: nobody more is told (the streams are the link's to finish).
  func dropWatchers() {
    watchers = [:]
  }

  /// What a watcher that has just come to this connection should hear of `role`: its current
  /// owner, or that it has none.
  func currentChange(of role: SelectionRole) -> OwnerChange {
    guard let offer = current[role], let token = tokens[role] else {
      return OwnerChange(role: role, kind: .ownerGone, owner: .none, isOwnedByThisProcess: false)
    }
    return OwnerChange(
      role: role, kind: .newOwner, owner: token,
      isOwnedByThisProcess: offers[offer]?.contains(marker) ?? false)
  }

  /// Destroys Ferry's objects, as a connection ends (the seat, bound at version 1, has no
  /// destructor; the socket's closing ends it).
  func destroyAll(on wire: WaylandWire) {
    for offer in Array(offers.keys) { destroyOffer(offer, on: wire) }
    current = [:]
    for source in sources.keys { wire.send(source, DataControlSourceRequest.destroy) }
    sources = [:]
    if let device { wire.send(device, DataControlDeviceRequest.destroy) }
    device = nil
    if let manager { wire.send(manager, DataControlManagerRequest.destroy) }
    manager = nil
  }
}
