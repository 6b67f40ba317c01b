import CWaylandDataControl
import Pasteboard
import SelectionBackend

/// What a ``WaylandConnection`` knows, touched on its thread only: the bound globals, the
/// offers announced and the current one of each selection, Ferry's own sources, and who
/// watches the selections.
final class WaylandState {
  /// Ferry's marker: a MIME type its sources offer, so that the broker tells its own offer
  /// from another program's (and never captures, or fights over, its own copy).
  let marker: String
  var registry: OpaquePointer?
  var seat: OpaquePointer?
  /// The manager, `ext` or `wlr`.
  var manager: OpaquePointer?
  /// Whether the manager is `ext-data-control-v1` (else `zwlr_data_control_manager_v1`).
  var ext: Int32 = 0
  /// The version the manager was bound at; PRIMARY needs 2 with wlr.
  var managerVersion: UInt32 = 0
  var device: UnsafeMutableRawPointer?
  /// Every offer announced and not yet destroyed, with its MIME types in order.
  var offers: [UnsafeMutableRawPointer: [String]] = [:]
  /// The current offer of each selection.
  var current: [SelectionRole: UnsafeMutableRawPointer] = [:]
  /// The current ownership of each selection, counted per selection event.
  var tokens: [SelectionRole: OwnerToken] = [:]
  private var generation: UInt64 = 0
  /// Ferry's sources, by pointer: what each serves, on which selection.
  var sources: [UnsafeMutableRawPointer: OwnSource] = [:]
  /// Ferry's current source of each selection.
  var ownSource: [SelectionRole: UnsafeMutableRawPointer] = [:]
  /// Selections Ferry cleared and whose `selection(NULL)` is its own doing.
  var clearing: Set<SelectionRole> = []
  /// Whether PRIMARY exists (the compositor sent a `primary_selection`).
  var hasPrimary = false
  var watchers: [UInt64: (roles: Set<SelectionRole>, continuation: AsyncStream<OwnerChange>.Continuation)] = [:]
  var lostHandlers: [@Sendable () -> Void] = []
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

  /// The next token: each selection event is a new ownership.
  func nextToken() -> OwnerToken {
    generation += 1
    return OwnerToken(owner: generation, generation: generation)
  }

  /// A new offer of `role` (`nil`: the selection was cleared or its owner went away): the
  /// previous offer is destroyed and the watchers hear of it.
  func select(_ role: SelectionRole, _ offer: UnsafeMutableRawPointer?) {
    if role == .primary { hasPrimary = true }
    if let previous = current.removeValue(forKey: role), previous != offer {
      offers.removeValue(forKey: previous)
      ferry_dc_destroy_offer(ext, previous)
    }
    let token = nextToken()
    let change: OwnerChange
    if let offer {
      current[role] = offer
      tokens[role] = token
      let own = offers[offer]?.contains(marker) ?? false
      change = OwnerChange(role: role, kind: .newOwner, owner: token, isOwnedByThisProcess: own)
    } else {
      let own = clearing.remove(role) != nil
      change = OwnerChange(role: role, kind: .ownerGone, owner: tokens.removeValue(forKey: role) ?? .none, isOwnedByThisProcess: own)
    }
    for watcher in watchers.values where watcher.roles.contains(role) { watcher.continuation.yield(change) }
  }

  func finishWatchers() {
    let ending = watchers.values.map(\.continuation)
    watchers = [:]
    ending.forEach { $0.finish() }
  }

  /// Destroys every object (the connection's last act).
  func destroyAll() {
    for offer in offers.keys { ferry_dc_destroy_offer(ext, offer) }
    offers = [:]
    current = [:]
    for source in sources.keys { ferry_dc_destroy_source(ext, source) }
    sources = [:]
    if let device { ferry_dc_destroy_device(ext, device) }
    device = nil
    if let manager { ferry_dc_destroy_manager(ext, UnsafeMutableRawPointer(manager)) }
    manager = nil
    if let seat { wl_seat_destroy(seat) }
    seat = nil
    if let registry { wl_registry_destroy(registry) }
    registry = nil
  }
}
