import FerrySystem
import FoundationEssentials

/// Pasteboard items kept on disk as a document-based app keeps its files: a `.pasteboard`
/// package directory holding a manifest and one file per representation.
///
/// ```swift
/// let document = PasteboardDocument(items: Pasteboard.general.items)
/// try await document.save(to: URL(fileURLWithPath: "clip.pasteboard"))
///
/// let opened = try PasteboardDocument.open(at: URL(fileURLWithPath: "clip.pasteboard"))
/// Pasteboard.general.write(opened.items)     // representations read from the package on request
/// ```
///
/// The package:
///
/// ```
/// clip.pasteboard/
///   manifest.json     items, options, expiration dates; representations in order: type, file, size
///   0-0.json          item 0, representation 0, named from the type's preferred extension
///   0-1.txt
///   1-0.data          a type with no preferred extension
/// ```
///
/// - ``save(to:)`` is atomic: it writes a staging sibling, flushes every file and directory,
///   and swaps it in with `renameat2(RENAME_EXCHANGE)`. A crash at any moment leaves the
///   previous document, complete, or the new one. File representations are copied by the
///   kernel, never read into memory. A concealed item is never saved.
/// - ``open(at:)`` checks the manifest and that every file it names is there with its
///   recorded size, then returns items whose representations are those files: nothing is
///   read until someone asks for a type.
/// - The document counts changes (``replaceItems(with:)``) and remembers the count it last
///   saved, as `NSDocument` does; ``DocumentAutosaver`` saves when the count moves.
///
/// Items opened from a document read their bytes from the package. Saving another document
/// to the same place replaces those files: a read already under way keeps the old bytes, a
/// later one sees the new document's file. Keep such items only as long as the document.
///
/// Every method is safe to call from many tasks at once; saves run one at a time, in the
/// order they were asked for, each writing the items as they were when it was asked.
public final class PasteboardDocument: Sendable {
  /// The package's usual filename extension, `pasteboard`.
  public static let filenameExtension = "pasteboard"

  private struct State {
    var items: [PasteboardItem]
    var changeCount = 0
    var lastSavedChangeCount: Int?
    var fileURL: URL?
    var lastSave: Task<Void, any Error>?
  }

  private let state: TrackedMutex<State>

  /// Creates an unsaved document holding `items`.
  ///
  /// - Parameter items: The items, in pasteboard order.
  public init(items: [PasteboardItem] = []) {
    state = TrackedMutex(State(items: items))
  }

  /// A document counted as saved at `url`: one just opened from it, or an autosaver's
  /// starting point.
  init(items: [PasteboardItem], baselineAt url: URL) {
    state = TrackedMutex(State(items: items, lastSavedChangeCount: 0, fileURL: url))
  }

  /// The items, in pasteboard order.
  public var items: [PasteboardItem] { state.withLock { $0.items } }

  /// A number that grows with every ``replaceItems(with:)``; 0 for a new or opened document.
  public var changeCount: Int { state.withLock { $0.changeCount } }

  /// The ``changeCount`` of the items last saved, or opened; `nil` before either.
  public var lastSavedChangeCount: Int? { state.withLock { $0.lastSavedChangeCount } }

  /// Whether the items differ from what was last saved or opened.
  public var hasUnsavedChanges: Bool {
    state.withLock { $0.lastSavedChangeCount != $0.changeCount }
  }

  /// Where the document was last saved or opened from.
  public var fileURL: URL? { state.withLock { $0.fileURL } }

  /// Replaces the items and moves ``changeCount`` on.
  ///
  /// ```swift
  /// document.replaceItems(with: Pasteboard.general.items)
  /// document.hasUnsavedChanges   // true
  /// ```
  ///
  /// - Parameter items: The new items.
  /// - Returns: The new change count.
  @discardableResult
  public func replaceItems(with items: [PasteboardItem]) -> Int {
    state.withLock { state in
      state.items = items
      state.changeCount += 1
      return state.changeCount
    }
  }

  /// Saves the items, as they are now, to a package at `url`, replacing any document there in
  /// one step.
  ///
  /// Each representation's payload is produced (running lazy providers) and written to its
  /// own file — data written, files copied by the kernel — into a staging sibling of `url`.
  /// Every file and the staging directory are flushed to disk; then the staging directory
  /// takes `url`'s place atomically and the replaced document is removed. Staging and aside
  /// copies left by a save that crashed are removed first.
  ///
  /// On any failure — a concealed item, a provider that throws, a full disk, cancellation —
  /// nothing at `url` changes and the staging copy is removed.
  ///
  /// ```swift
  /// try await document.save(to: URL(fileURLWithPath: "/home/me/clip.pasteboard"))
  /// ```
  ///
  /// - Parameter url: The package's location. Anything already there must be a pasteboard
  ///   document (a directory holding a `manifest.json`) or an empty directory.
  /// - Throws: ``PasteboardError/concealed`` when an item is concealed;
  ///   ``PasteboardError/invalidDocument(path:reason:)`` when `url` holds something other than
  ///   a document; ``PasteboardError/io(_:)`` or the provider's error when writing fails.
  public func save(to url: URL) async throws {
    _ = try await saveReportingChangeCount(to: url)
  }

  /// Saves as ``save(to:)`` does and returns the change count that was saved.
  func saveReportingChangeCount(to url: URL) async throws -> Int {
    let (task, changeCount) = state.withLock { state in
      let (items, previous) = (state.items, state.lastSave)
      let task = Task {
        _ = await previous?.result
        try Task.checkCancellation()
        try await Self.write(items, to: url)
      }
      state.lastSave = task
      return (task, state.changeCount)
    }
    try await withTaskCancellationHandler {
      try await task.value
    } onCancel: {
      task.cancel()
    }
    state.withLock { state in
      state.lastSavedChangeCount = max(state.lastSavedChangeCount ?? changeCount, changeCount)
      state.fileURL = url
    }
    return changeCount
  }
}
