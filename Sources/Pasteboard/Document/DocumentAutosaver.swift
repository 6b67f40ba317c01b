import FerrySystem
import FoundationEssentials

/// Keeps a pasteboard's items saved in a document, as a document-based app autosaves: when
/// the change count moves, after a short delay that gathers a burst of writes into one save.
///
/// ```swift
/// let url = URL(fileURLWithPath: "/home/me/.local/state/ferry/general.pasteboard")
/// if let saved = try? PasteboardDocument.open(at: url) { Pasteboard.general.write(saved.items) }
/// let autosaver = DocumentAutosaver(pasteboard: .general, url: url)
/// // … every change is saved within about 250 ms …
/// await autosaver.stop()   // saves what is pending, then stops
/// ```
///
/// Each change of the pasteboard replaces the ``document``'s items with the pasteboard's
/// (moving the document's change count). The first change after a save starts the delay;
/// changes during the delay or during a save are gathered into the next save, which writes
/// the items as they are then. A save happens only when the document has changes it has not
/// saved. Clearing the pasteboard saves an empty document.
///
/// A concealed item is never written: while the pasteboard holds one, saves are skipped
/// (reported as ``Event/skippedConcealed(changeCount:)``) and the document on disk stays as
/// the last save left it. It is not deleted: it holds what was copied before the secret,
/// which is what a restart should bring back. The next change that is not concealed is
/// saved as usual.
///
/// A failed save (``Event/failed(changeCount:error:)``) leaves the previous document; the
/// next change tries again.
///
/// Start the autosaver after restoring a document into the pasteboard, or the restoring
/// write is saved back.
public final class DocumentAutosaver: Sendable {
  /// What one save attempt did.
  public enum Event: Sendable {
    /// The items of `changeCount` (the document's count) were saved.
    case saved(changeCount: Int)
    /// An item was concealed; nothing was written and the previous document stays.
    case skippedConcealed(changeCount: Int)
    /// Saving failed; the previous document stays.
    case failed(changeCount: Int, error: any Error)
  }

  /// The delay between a change and its save: long enough to gather the writes of one copy
  /// (an application often writes several times in a row), short enough that a crash soon
  /// after a copy still finds it saved.
  public static let defaultDelay: Duration = .milliseconds(250)

  /// The document holding the pasteboard's items.
  public let document: PasteboardDocument
  /// Where the document is saved.
  public let url: URL
  /// The delay between a change and its save.
  public let delay: Duration

  private let hub: EventHub
  private let tasks: TrackedMutex<[Task<Void, Never>]>

  /// Starts saving `pasteboard`'s items to `url` whenever its change count moves.
  ///
  /// - Parameters:
  ///   - pasteboard: The pasteboard to watch.
  ///   - url: The document's location.
  ///   - delay: How long after a change to save.
  ///   - clock: The clock the delay is measured on.
  public init<C: Clock<Duration>>(
    pasteboard: Pasteboard, url: URL, delay: Duration = defaultDelay, clock: C
  ) {
    // What the pasteboard holds now is the baseline: only changes from here on are saved.
    let document = PasteboardDocument(items: pasteboard.items, baselineAt: url)
    let hub = EventHub()
    self.document = document
    self.url = url
    self.delay = delay
    self.hub = hub

    // Subscribed now, so that no change after `init` is missed.
    let changes = pasteboard.changes
    let (signals, signal) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    let watcher = Task { [weak pasteboard] in
      for await _ in changes {
        guard let pasteboard else { break }
        document.replaceItems(with: pasteboard.items)
        signal.yield()
      }
      signal.finish()
    }
    let saver = Task {
      for await _ in signals {
        do { try await clock.sleep(for: delay) } catch { break }
        // Unstructured, so that stopping never cuts a save short.
        _ = await Task { await Self.saveIfNeeded(document, to: url, hub: hub) }.value
      }
    }
    tasks = TrackedMutex([watcher, saver])
  }

  /// Starts saving `pasteboard`'s items to `url` whenever its change count moves, measuring
  /// the delay on the continuous clock.
  ///
  /// - Parameters:
  ///   - pasteboard: The pasteboard to watch.
  ///   - url: The document's location.
  ///   - delay: How long after a change to save.
  public convenience init(pasteboard: Pasteboard, url: URL, delay: Duration = defaultDelay) {
    self.init(pasteboard: pasteboard, url: url, delay: delay, clock: ContinuousClock())
  }

  deinit {
    for task in tasks.withLock({ $0 }) { task.cancel() }
  }

  /// What each save attempt does from now on.
  ///
  /// ```swift
  /// for await event in autosaver.events { log(event) }
  /// ```
  public var events: AsyncStream<Event> { hub.subscribe() }

  /// Saves now, without waiting for the delay, when the document has unsaved changes.
  ///
  /// - Returns: What the attempt did; `nil` when there was nothing to save.
  @discardableResult
  public func flush() async -> Event? {
    await Self.saveIfNeeded(document, to: url, hub: hub)
  }

  /// Stops watching the pasteboard and saves any change not saved yet, as an application
  /// saves when it quits. A save under way finishes first.
  ///
  /// - Returns: What the final save did; `nil` when there was nothing to save.
  @discardableResult
  public func stop() async -> Event? {
    let running = tasks.withLock { tasks in
      defer { tasks = [] }
      return tasks
    }
    for task in running { task.cancel() }
    for task in running { await task.value }
    let event = await flush()
    hub.finish()
    return event
  }

  private static func saveIfNeeded(
    _ document: PasteboardDocument, to url: URL, hub: EventHub
  ) async -> Event? {
    guard document.hasUnsavedChanges else { return nil }
    let event: Event
    do {
      event = .saved(changeCount: try await document.saveReportingChangeCount(to: url))
    } catch PasteboardError.concealed {
      event = .skippedConcealed(changeCount: document.changeCount)
    } catch {
      event = .failed(changeCount: document.changeCount, error: error)
    }
    hub.yield(event)
    return event
  }
}

extension DocumentAutosaver {
  /// The subscribers to ``events``.
  private final class EventHub: Sendable {
    private let watchers = TrackedMutex<[UUID: AsyncStream<Event>.Continuation]?>([:])

    func subscribe() -> AsyncStream<Event> {
      let (stream, continuation) = AsyncStream<Event>.makeStream(
        bufferingPolicy: .bufferingNewest(64))
      let id = UUID()
      let added = watchers.withLock { watchers -> Bool in
        guard watchers != nil else { return false }
        watchers?[id] = continuation
        return true
      }
      guard added else {
        continuation.finish()
        return stream
      }
      continuation.onTermination = { [weak self] _ in
        _ = self?.watchers.withLock { $0?.removeValue(forKey: id) }
      }
      return stream
    }

    func yield(_ event: Event) {
      for watcher in watchers.withLock({ $0?.values.map { $0 } ?? [] }) { watcher.yield(event) }
    }

    func finish() {
      let ended = watchers.withLock { watchers in
        defer { watchers = nil }
        return watchers?.values.map { $0 } ?? []
      }
      for watcher in ended { watcher.finish() }
    }
  }
}
