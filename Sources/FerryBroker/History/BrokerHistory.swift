import ClipboardHistory
import Dispatch
import FerrySystem
import Logging
import Pasteboard
import UniformTypeIdentifiers

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The broker's clipboard history: records each new item of the pasteboards it follows into
/// a ``HistoryStore``, and answers the history operations.
///
/// Every store call runs on one serial queue of its own — never on the socket's event loop
/// or the X thread — so recording never holds up serving, and the store sees one change at a
/// time.
public final class BrokerHistory: Sendable {
  /// The store.
  public let store: HistoryStore
  let settings: HistorySettings
  let sources = ItemSources()
  private let queue = DispatchQueue(label: "ferry.history", qos: .utility)
  private let logger: Logger
  /// Each pasteboard's copy last recorded and its entry, the item held weakly: a copy kept
  /// when its owner went replaces its partial entry (``recordKept(_:replacing:from:changeCount:)``).
  private let lastRecorded = TrackedMutex<[Pasteboard.Name: RecordedCopy]>([:])

  /// Opens the history in `directory` as its writer.
  ///
  /// - Throws: ``HistoryError`` when the store cannot be opened (another broker writes it,
  ///   the file is damaged or foreign, the directory is read-only).
  public init(directory: URL, settings: HistorySettings, logger: Logger) throws {
    store = try HistoryStore(directory: directory, access: .writer, limits: settings.limits)
    self.settings = settings
    self.logger = logger
  }

  /// Runs `body` with the store on the history's queue.
  public func perform<T: Sendable>(_ body: @escaping @Sendable (HistoryStore) throws -> T)
    async throws -> T
  {
    try await withCheckedThrowingContinuation { continuation in
      queue.async { [store] in continuation.resume(with: Result { try body(store) }) }
    }
  }

  // MARK: Recording

  /// Records the changes of `board` until the task is cancelled: each item that settles,
  /// unless concealed or transient, with every representation at hand.
  func follow(_ board: Pasteboard) async {
    for await count in board.changes {
      guard await board.settle(within: .seconds(15)), board.changeCount == count else { continue }
      guard let item = board.items.first else { continue }
      await record(item, from: board, changeCount: count)
    }
  }

  /// Records the copy a binding kept as its owner went (``SelectionBinding``): `kept` holds
  /// bytes past the capture budget that a paste read in full from the owner, which were not
  /// at hand when `original` was recorded. The entry recorded for `original` then, with what
  /// was captured only, gives way to the fuller one, unless it was pinned: one copy, one
  /// entry. Only on the pasteboards the history follows.
  func recordKept(
    _ kept: PasteboardItem, replacing original: PasteboardItem, from board: Pasteboard,
    changeCount: Int
  ) async {
    guard settings.recordedPasteboards.contains(board.name.rawValue) else {
      _ = sources.take(kept)
      return
    }
    // Looked up on the history's queue, after the records queued before: the record of
    // `original` has then said which entry it made, however late its task ran.
    let name = board.name
    let partial = try? await perform { [self] _ in
      lastRecorded.withLock { last -> HistoryEntry.ID? in
        guard let recorded = last[name], recorded.item === original else { return nil }
        return recorded.id
      }
    }
    guard let id = await record(kept, from: board, changeCount: changeCount),
      let partial = partial.flatMap({ $0 }), partial != id
    else { return }
    do {
      let deleted = try await perform { store -> Bool in
        guard let entry = try store.entry(partial), !entry.isPinned else { return false }
        return try store.delete([partial]) == 1
      }
      if deleted {
        logger.debug(
          "the kept copy replaces entry \(partial.rawValue)", metadata: ["entry": "\(id)"])
      }
    } catch {
      logger.error("the history could not replace entry \(partial.rawValue): \(error)")
    }
  }

  /// Records `item`, the pasteboard's copy at `changeCount`.
  ///
  /// - Returns: The entry that holds it, or `nil` when it was not recorded.
  @discardableResult
  func record(_ item: PasteboardItem, from board: Pasteboard, changeCount: Int) async
    -> HistoryEntry.ID?
  {
    let source = sources.take(item)
    if item.options.contains(.concealed) || item.options.contains(.transient) { return nil }
    if settings.ignores(source) {
      logger.debug("not recorded: \(source ?? "") is in history.ignore")
      return nil
    }
    // What is at hand: stored bytes and files. A lazy representation (the part of an X
    // owner's offer past the capture budget, or PRIMARY's data) would mean asking the owner
    // again; only text is fetched that way, and only for PRIMARY, whose budget is zero.
    var representations: [HistoryItem.Representation] = []
    for representation in item.representations {
      let isText = Self.isText(representation.type)
      if representation.isLazy && !(board.name == .primary && isText) { continue }
      guard let payload = try? await item.payload(for: representation.type) else { continue }
      representations.append(
        HistoryItem.Representation(
          type: representation.type.identifier, content: payload, isText: isText))
    }
    guard !representations.isEmpty else { return nil }
    let entry = HistoryItem(
      pasteboard: board.name.rawValue, changeCount: changeCount, source: source,
      representations: representations)
    let (logger, name) = (self.logger, board.name)
    let id: HistoryEntry.ID
    do {
      // Which entry holds the copy is noted on the queue, with the record: a kept copy's
      // lookup there (``recordKept(_:replacing:from:changeCount:)``) comes after it.
      let result = try await perform { [self] store in
        let result = try store.record(entry)
        switch result {
        case .recorded(let recorded, _), .deduplicated(let recorded):
          lastRecorded.withLock { $0[name] = RecordedCopy(item: item, id: recorded) }
        case .refused: break
        }
        return result
      }
      switch result {
      case .refused(let reason):
        logger.info("not recorded in the history: \(reason)")
        return nil
      case .recorded(let recorded, let evicted):
        id = recorded
        logger.debug(
          "recorded",
          metadata: [
            "entry": "\(id)", "evicted": "\(evicted.count)", "pasteboard": "\(board.name.rawValue)",
          ])
      case .deduplicated(let recorded):
        id = recorded
        logger.debug(
          "recorded again", metadata: ["entry": "\(id)", "pasteboard": "\(board.name.rawValue)"])
      }
    } catch {
      // A full disk, a blob that cannot be written: this copy is not kept; the clipboard works.
      logger.error("the history could not record a copy: \(error)")
      return nil
    }
    return id
  }

  /// Whether a type's bytes are text the history searches and previews: UTF-8 or ASCII text
  /// (not UTF-16, whose bytes would read as noise).
  static func isText(_ type: UTType) -> Bool {
    type.conforms(to: .text) && !type.conforms(to: .utf16PlainText)
      && !type.conforms(to: .utf16ExternalPlainText)
  }

  // MARK: Restoring

  /// The pasteboard item an entry was: every representation in its order, small ones in
  /// memory, large ones served from the history's blob files.
  ///
  /// A blob is served through a hard link of its own under `restored/`, so deleting or
  /// evicting the entry while its item is on the clipboard never takes the bytes away.
  ///
  /// - Parameter converters: The conversions the item serves besides its stored types.
  /// - Throws: ``HistoryError`` when a blob file is missing; `nil` when the entry is gone.
  public func item(for id: HistoryEntry.ID, converters: ConverterRegistry = .shared) async throws
    -> PasteboardItem?
  {
    try await load(id, converters: converters)?.item
  }

  /// An entry and the item it was (see ``item(for:converters:)``), read in one step.
  func load(_ id: HistoryEntry.ID, converters: ConverterRegistry) async throws
    -> (entry: HistoryEntry, item: PasteboardItem)?
  {
    let restored = restoredDirectory
    let loaded = try await perform { store -> (HistoryEntry, [PasteboardPayload])? in
      guard let entry = try store.entry(id) else { return nil }
      return (
        entry,
        try entry.representations.indices.map { index in
          let payload = try store.contents(of: id, at: index)
          guard case .file(let blob) = payload else { return payload }
          return .file(try Self.link(blob, into: restored))
        }
      )
    }
    guard let (entry, payloads) = loaded else { return nil }
    let item = PasteboardItem(
      representations: zip(entry.types, payloads).map { identifier, payload in
        let type = UTType(identifier) ?? UTType(importedAs: identifier)
        switch payload {
        case .data(let data): return .data(data, type: type)
        case .file(let url): return .file(url, type: type)
        }
      },
      converters: converters)
    return (entry, item)
  }

  /// Where restored items' blob links live: emptied when the broker starts.
  var restoredDirectory: URL {
    store.directory.appendingPathComponent("restored", isDirectory: true)
  }

  /// Empties ``restoredDirectory``: no item of an earlier run is on a pasteboard.
  func removeRestoredLinks() {
    try? FileManager.default.removeItem(at: restoredDirectory)
  }

  /// A new hard link to `blob` in `directory` (same file system: both are in the data
  /// directory), or a copy where links are not allowed.
  static func link(_ blob: URL, into directory: URL) throws -> URL {
    try FileManager.default.createDirectory(
      at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let link = directory.appendingPathComponent(
      "\(UUID().uuidString)-\(blob.lastPathComponent.prefix(16))")
    do {
      try FileManager.default.linkItem(at: blob, to: link)
    } catch {
      try FileManager.default.copyItem(at: blob, to: link)
    }
    return link
  }

  /// The newest entry of `pasteboard`, as an item, or `nil` when there is none or it cannot
  /// be read (logged).
  func newestItem(of pasteboard: Pasteboard.Name) async -> PasteboardItem? {
    do {
      guard let newest = try await perform({ try $0.newest(pasteboard: pasteboard.rawValue) })
      else { return nil }
      return try await item(for: newest.id)
    } catch {
      logger.error(
        "the newest \(pasteboard.rawValue) entry of the history cannot be read: \(error)")
      return nil
    }
  }
}

/// A copy the history recorded, held weakly, and its entry.
struct RecordedCopy: Sendable {
  weak var item: PasteboardItem?
  var id: HistoryEntry.ID
}
