import FerryProtocol
import FerrySync
import Foundation

/// A broker in memory for the sync engine's tests: one general pasteboard with the real
/// broker's origin rule (FerryBroker's `ItemOrigins`): a local copy is stamped with this
/// node, its change count and one more than the clock; a synchronized write lands only when
/// its origin is greater than the current item's, else it goes to the history alone; every
/// clock seen moves the clock up.
final class MemoryBroker: LocalPasteboards, @unchecked Sendable {
  /// An item on the pasteboard.
  struct Item: Hashable {
    var representations: [SyncItem.Representation]
    var origin: ItemOrigin
    var options: [ItemOption] = []
    var concealed = false
  }

  /// What the history recorded: the item and the host it came from (`nil`: a local copy).
  struct Entry {
    var host: String?
    var item: SyncItem
  }

  let node = UUID().uuidString.lowercased()
  private let condition = NSCondition()
  private var clock = 0
  private var count = 0
  private var item: Item?
  private var entries: [Entry] = []
  private var events: [PasteboardState] = []
  private var watching = true
  private var reads = 0
  private var reported: [SyncLinkStatus] = []
  private var delivered = 0
  private var delivering = false

  /// Copies `representations` here, as an application would.
  @discardableResult
  func copy(
    _ representations: [(String, Data)], options: [ItemOption] = [], concealed: Bool = false
  ) -> ItemOrigin {
    locked {
      count += 1
      clock += 1
      let origin = ItemOrigin(node: node, change: count, clock: clock)
      let stored = representations.map { SyncItem.Representation(type: $0.0, bytes: $0.1) }
      item = Item(representations: stored, origin: origin, options: options, concealed: concealed)
      if !concealed {
        entries.append(
          Entry(
            host: nil,
            item: SyncItem(pasteboard: "general", origin: origin, representations: stored)))
      }
      events.append(stateNow())
      condition.broadcast()
      return origin
    }
  }

  /// Copies one text.
  @discardableResult
  func copy(text: String) -> ItemOrigin { copy([("public.utf8-plain-text", Data(text.utf8))]) }

  /// The change count.
  var changeCount: Int { locked { count } }
  /// The current item.
  var current: Item? { locked { item } }
  /// The current item's text, when it has one.
  var text: String? {
    locked {
      item?.representations.first { $0.type == "public.utf8-plain-text" }.map {
        String(decoding: $0.bytes, as: UTF8.self)
      }
    }
  }
  /// The history, oldest first.
  var history: [Entry] { locked { entries } }
  /// How many times the engine read an item.
  var readCount: Int { locked { reads } }
  /// Whether the watch handed every change to the engine (which noted it).
  var caughtUp: Bool { locked { events.isEmpty && !delivering } }
  /// What the watch did and what the engine asked, for a failing test's message.
  var diagnosis: String {
    locked {
      "count \(count), events waiting \(events.count), delivered \(delivered), reads \(reads)"
    }
  }
  /// The links the engine last reported.
  var links: [SyncLinkStatus] { locked { reported } }

  /// Ends the watch, as a broker that stops.
  func stopWatch() {
    locked {
      watching = false
      condition.broadcast()
    }
  }

  // MARK: LocalPasteboards

  func report(links: [SyncLinkStatus], clock seen: Int?) throws -> SyncReportResponse {
    locked {
      if let seen { clock = max(clock, seen) }
      if !links.isEmpty || seen != nil { reported = links }
      return SyncReportResponse(node: node, clock: clock)
    }
  }

  func watch(_ pasteboards: [String], handler: @escaping @Sendable (PasteboardState) -> Bool)
    throws
  {
    guard handler(locked { stateNow() }) else { return }
    while true {
      condition.lock()
      while events.isEmpty && watching { condition.wait() }
      guard watching else {
        condition.unlock()
        return
      }
      let event = events.removeFirst()
      delivered += 1
      delivering = true
      condition.unlock()
      let goOn = handler(event)
      locked { delivering = false }
      guard goOn else { return }
    }
  }

  func read(_ types: [String], of state: PasteboardState, limit: Int) throws -> LocalRead {
    locked {
      reads += 1
      guard state.changeCount == count, let item else { return .changed }
      let chosen = item.representations.filter { types.contains($0.type) }
      let total = chosen.reduce(0) { $0 + $1.bytes.count }
      return total > limit ? .tooLarge(total) : .item(chosen)
    }
  }

  func write(_ arrived: SyncItem, from host: String) throws -> Bool {
    locked {
      clock = max(clock, arrived.origin.clock)
      entries.append(Entry(host: host, item: arrived))
      if let item, arrived.origin <= item.origin { return false }
      count += 1
      item = Item(representations: arrived.representations, origin: arrived.origin)
      events.append(stateNow())
      condition.broadcast()
      return true
    }
  }

  // MARK: Private

  private func stateNow() -> PasteboardState {
    let types = item?.representations.map(\.type) ?? []
    return PasteboardState(
      pasteboard: "general", changeCount: count, types: types, storedTypes: types,
      concealed: item?.concealed ?? false,
      options: item?.options.isEmpty ?? true ? nil : item?.options,
      origin: item?.origin)
  }

  private func locked<T>(_ body: () -> T) -> T {
    condition.lock()
    defer { condition.unlock() }
    return body()
  }
}
