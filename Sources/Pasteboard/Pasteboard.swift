import CoreTransferable
import FerrySystem
import FoundationEssentials
import UniformTypeIdentifiers

/// A named place holding what was copied: items with ordered, typed representations.
///
/// ```swift
/// let board = Pasteboard.general
/// board.write(profile)                       // one item: the profile's representations
/// board.types                                // [com.example.profile, public.utf8-plain-text, …]
/// let name = try await board.read(String.self)          // "Juan Chavez"
/// let json = try await board.data(for: .profile)        // the JSON
/// ```
///
/// Writing replaces what the pasteboard held and moves ``changeCount`` on, in one step: a
/// reader never sees an empty pasteboard between a clear and a write. Every method is safe to
/// call from many tasks at once.
public final class Pasteboard: Sendable {
  /// The name of a pasteboard.
  public struct Name: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral {
    /// The name.
    public let rawValue: String

    /// Creates a name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Creates a name from a literal.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// Copy and paste; the X11 `CLIPBOARD` selection.
    public static let general: Name = "general"
    /// The X11 `PRIMARY` selection: what was last selected.
    public static let primary: Name = "primary"
    /// Drag and drop; the X11 `XdndSelection`.
    public static let drag: Name = "drag"
    /// The shared find string.
    public static let find: Name = "find"
  }

  private struct Contents {
    var items: [PasteboardItem] = []
    var changeCount = 0
    var watchers: [UUID: AsyncStream<Int>.Continuation] = [:]
    /// Writes announced and not yet made or withdrawn.
    var pendingWrites = 0
    /// Readers waiting for the pending writes.
    var settleWaiters: [UUID: CheckedContinuation<Void, Never>] = [:]
  }

  private static let registry = TrackedMutex<[Name: Pasteboard]>([:])

  /// The pasteboard with `name`, created on first use; the same object every time.
  ///
  /// ```swift
  /// let scratch = Pasteboard.named("scratch")
  /// ```
  public static func named(_ name: Name) -> Pasteboard {
    registry.withLock { boards in
      if let board = boards[name] { return board }
      let board = Pasteboard(name: name)
      boards[name] = board
      return board
    }
  }

  /// The general pasteboard (copy and paste).
  public static var general: Pasteboard { named(.general) }
  /// The primary selection.
  public static var primary: Pasteboard { named(.primary) }
  /// The drag pasteboard.
  public static var drag: Pasteboard { named(.drag) }

  /// The pasteboard's name.
  public let name: Name
  /// The converters items written here plan with.
  public let converters: ConverterRegistry
  private let contents = TrackedMutex(Contents())

  /// Creates a pasteboard of its own, not shared through ``named(_:)``.
  ///
  /// - Parameters:
  ///   - name: Its name.
  ///   - converters: The converters of the items written to it.
  public init(name: Name, converters: ConverterRegistry = .shared) {
    self.name = name
    self.converters = converters
  }

  /// A number that grows with every write and every clear.
  public var changeCount: Int { contents.withLock { $0.changeCount } }

  /// Removes every item.
  ///
  /// - Returns: The new change count.
  @discardableResult
  public func clearContents() -> Int {
    replace(with: [])
  }

  /// Removes every item, provided nothing was written since `changeCount`: a copy that
  /// went away with its owner is forgotten, and a newer one is left alone.
  ///
  /// - Returns: The new change count, or `nil` when the pasteboard changed since.
  @discardableResult
  public func clearContents(ifChangeCountIs changeCount: Int) -> Int? {
    contents.withLock { contents in
      guard contents.changeCount == changeCount else { return nil }
      contents.items = []
      contents.changeCount += 1
      for watcher in contents.watchers.values { watcher.yield(contents.changeCount) }
      return contents.changeCount
    }
  }

  /// Replaces the contents with `items`.
  ///
  /// - Returns: The new change count.
  @discardableResult
  public func write(_ items: [PasteboardItem]) -> Int {
    replace(with: items)
  }

  /// Replaces the contents with one item holding `value`'s representations, in its order,
  /// each produced when first asked for.
  ///
  /// Only representations visible to every process (`.all`) are written: a pasteboard may be
  /// served to other programs.
  ///
  /// ```swift
  /// Pasteboard.general.write(Profile(name: "Juan Chavez", bio: "…"))
  /// ```
  ///
  /// - Parameters:
  ///   - value: The value.
  ///   - options: How the item may be kept and shown.
  /// - Returns: The new change count.
  @discardableResult
  public func write(_ value: some Transferable, options: PasteboardItem.Options = []) -> Int {
    write([PasteboardItem(value, options: options, converters: converters)])
  }

  /// Replaces the contents with `items`, provided nothing was written since `changeCount`.
  ///
  /// - Returns: The new change count, or `nil` when the pasteboard changed since.
  @discardableResult
  public func write(_ items: [PasteboardItem], ifChangeCountIs changeCount: Int) -> Int? {
    contents.withLock { contents in
      guard contents.changeCount == changeCount else { return nil }
      contents.items = items
      contents.changeCount += 1
      for watcher in contents.watchers.values { watcher.yield(contents.changeCount) }
      return contents.changeCount
    }
  }

  private func replace(with items: [PasteboardItem]) -> Int {
    contents.withLock { contents in
      contents.items = items
      contents.changeCount += 1
      for watcher in contents.watchers.values { watcher.yield(contents.changeCount) }
      return contents.changeCount
    }
  }

  /// Replaces the items with another form of the same copy, without moving ``changeCount``
  /// or telling watchers — provided nothing was written since `changeCount`.
  ///
  /// A clipboard manager uses it when it takes over what an application copied: the copy is
  /// the same, only who holds its bytes changed.
  ///
  /// - Returns: Whether the items were replaced (`false` when the pasteboard changed since).
  @discardableResult
  public func substitute(_ items: [PasteboardItem], ifChangeCountIs changeCount: Int) -> Bool {
    contents.withLock { contents in
      guard contents.changeCount == changeCount else { return false }
      contents.items = items
      return true
    }
  }

  /// The items, without those past their expiration date.
  public var items: [PasteboardItem] {
    contents.withLock { $0.items }.filter { !$0.isExpired }
  }

  /// Every type the items serve, in item order, each once.
  public var types: [UTType] {
    var seen = Set<UTType>()
    return items.flatMap(\.types).filter { seen.insert($0).inserted }
  }

  /// The first of `types` — the caller's preference order — that the pasteboard can serve,
  /// directly, by conformance or by conversion.
  ///
  /// ```swift
  /// Pasteboard.general.availableType(from: [.png, .utf8PlainText])
  /// ```
  public func availableType(from types: [UTType]) -> UTType? {
    choice(for: types)?.requested
  }

  /// What serves a request: the item, the type asked for, and the type it is served as.
  public struct Choice: Sendable {
    /// The item that serves the request.
    public let item: PasteboardItem
    /// The first of the requested types that the item serves.
    public let requested: UTType
    /// The type the item serves it as: the requested type itself, a type conforming to it,
    /// or a conversion's result.
    public let served: UTType
  }

  /// The first of `types`, in the caller's order of preference, that an item serves —
  /// directly, by conformance or by conversion — with the first item serving it. The one
  /// place that decides which type and item answer a read.
  public func choice(for types: [UTType]) -> Choice? {
    let items = self.items
    for type in types {
      for item in items {
        if let served = item.availableType(conformingTo: type) {
          return Choice(item: item, requested: type, served: served)
        }
      }
    }
    return nil
  }

  /// Whether an item serves one of `types` or a type conforming to it.
  public func canRead(conformingTo types: [UTType]) -> Bool {
    availableType(from: types) != nil
  }

  /// The bytes for `type` from the first item that serves it.
  ///
  /// - Throws: ``PasteboardError``: the pasteboard is empty, no item serves the type, or
  ///   producing it failed.
  public func data(for type: UTType) async throws -> Data {
    try await item(serving: type).data(for: type)
  }

  /// The payload for `type` — possibly a file, never read into memory here — from the first
  /// item that serves it. Use it, or ``PasteboardPayload/write(to:)``, for large data.
  ///
  /// - Throws: ``PasteboardError``.
  public func payload(for type: UTType) async throws -> PasteboardPayload {
    try await item(serving: type).payload(for: type)
  }

  /// A value of `T` made from the first representation, of the first item, that `T` can
  /// import; `nil` when nothing can be imported.
  ///
  /// ```swift
  /// let profile = try await Pasteboard.general.read(Profile.self)
  /// ```
  ///
  /// - Throws: ``PasteboardError`` or `TransferError` when producing or importing fails.
  public func read<T: Transferable>(_ type: T.Type) async throws -> T? {
    let importers = T.transferImporters()
    for item in items {
      for importer in importers {
        guard let served = item.availableType(conformingTo: importer.contentType) else { continue }
        switch try await item.payload(for: served) {
        case .data(let data): return try await importer.importing(data, contentType: served)
        case .file(let url):
          return try await importer.importing(
            file: url, contentType: served, allowsOpeningInPlace: false)
        }
      }
    }
    return nil
  }

  /// The change counts from now on, one per write or clear.
  ///
  /// ```swift
  /// for await count in Pasteboard.general.changes { print("changed:", count) }
  /// ```
  public var changes: AsyncStream<Int> {
    let (stream, continuation) = AsyncStream<Int>.makeStream(bufferingPolicy: .bufferingNewest(16))
    let id = UUID()
    contents.withLock { $0.watchers[id] = continuation }
    continuation.onTermination = { [weak self] _ in
      _ = self?.contents.withLock { $0.watchers.removeValue(forKey: id) }
    }
    return stream
  }

  // MARK: Writes on their way

  /// Announces a write on its way, so that readers who wait with ``settle(within:)`` get the
  /// new item rather than the one it replaces.
  ///
  /// The broker announces one when it sees a new X owner and is copying its offer: from that
  /// moment the item it holds is stale. End the announcement with
  /// ``PendingWrite/finish()`` after writing (or when the write is given up).
  ///
  /// ```swift
  /// let pending = board.announceWrite()
  /// defer { pending.finish() }
  /// board.write([await captureNewOwner()])
  /// ```
  public func announceWrite() -> PendingWrite {
    contents.withLock { $0.pendingWrites += 1 }
    return PendingWrite { [weak self] in self?.endPendingWrite() }
  }

  /// Waits until no announced write is pending, at most `limit`.
  ///
  /// - Returns: `true` when settled, `false` when a write was still pending at the limit.
  public func settle(within limit: Duration) async -> Bool {
    let id = UUID()
    let settled = await withTaskGroup(of: Bool.self) { group in
      group.addTask {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
          let waiting = self.contents.withLock { contents -> Bool in
            guard contents.pendingWrites > 0 else { return false }
            contents.settleWaiters[id] = continuation
            return true
          }
          if !waiting { continuation.resume() }
        }
        return true
      }
      group.addTask {
        try? await Task.sleep(for: limit, clock: .timerThread)
        return false
      }
      let first = await group.next() ?? true
      if !first {
        contents.withLock { $0.settleWaiters.removeValue(forKey: id) }?.resume()
      }
      group.cancelAll()
      return first
    }
    return settled
  }

  /// Whether a write is announced and not yet made.
  public var hasPendingWrite: Bool { contents.withLock { $0.pendingWrites > 0 } }

  private func endPendingWrite() {
    let waiters = contents.withLock { contents -> [CheckedContinuation<Void, Never>] in
      contents.pendingWrites -= 1
      guard contents.pendingWrites == 0 else { return [] }
      defer { contents.settleWaiters.removeAll() }
      return Array(contents.settleWaiters.values)
    }
    waiters.forEach { $0.resume() }
  }

  private func item(serving type: UTType) throws -> PasteboardItem {
    let items = self.items
    guard !items.isEmpty else { throw PasteboardError.empty(name) }
    guard let item = items.first(where: { $0.availableType(conformingTo: type) != nil }) else {
      throw PasteboardError.typeNotAvailable(type, offered: types)
    }
    return item
  }
}
