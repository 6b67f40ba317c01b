import FerryProtocol

/// The origins a link has carried, the newest 1,024: an origin already seen is not offered
/// again (docs/SYNC.md, rule 3).
struct RecentOrigins {
  static let capacity = 1024
  private var order: [ItemOrigin] = []
  private var members: Set<ItemOrigin> = []

  /// Whether `origin` was seen.
  func contains(_ origin: ItemOrigin) -> Bool { members.contains(origin) }

  /// Notes `origin`, forgetting the oldest past the capacity.
  mutating func insert(_ origin: ItemOrigin) {
    guard members.insert(origin).inserted else { return }
    order.append(origin)
    if order.count > Self.capacity {
      members.remove(order.removeFirst())
    }
  }
}
