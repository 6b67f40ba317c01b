import FerrySystem
import Pasteboard

/// Who made each item on its way to a pasteboard: a client's name (`pbcopy`, `ferry copy`)
/// or an X owner's application, noted by the writer before it writes and taken by the
/// history when it records the item.
///
/// Items are held weakly and only the newest few are kept, so items replaced before the
/// history saw them cost nothing.
final class ItemSources: Sendable {
  private struct Noted {
    weak var item: PasteboardItem?
    var source: String
  }

  private static let capacity = 64
  private let sources = TrackedMutex<[Noted]>([])

  /// Notes that `item` came from `source`.
  func note(_ item: PasteboardItem, source: String?) {
    guard let source, !source.isEmpty else { return }
    sources.withLock { sources in
      sources.removeAll { $0.item == nil }
      sources.append(Noted(item: item, source: source))
      if sources.count > Self.capacity { sources.removeFirst(sources.count - Self.capacity) }
    }
  }

  /// The source noted for `item`, forgotten as it is taken.
  func take(_ item: PasteboardItem) -> String? {
    sources.withLock { sources in
      guard let index = sources.lastIndex(where: { $0.item === item }) else { return nil }
      return sources.remove(at: index).source
    }
  }
}
