/// Why a history operation failed. Each case names the file or entry involved; a failed
/// recording leaves the store as it was and usable.
///
/// ```swift
/// do {
///   store = try HistoryStore(directory: dataDirectory)
/// } catch let error as HistoryError {
///   print("history off: \(error)")   // …/history.sqlite: not a Ferry history database
/// }
/// ```
public enum HistoryError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The database file is damaged or not a database at all. The file is left untouched.
  case unreadableDatabase(path: String, reason: String)
  /// The file is an SQLite database of some other program. The file is left untouched.
  case foreignDatabase(path: String)
  /// The database was written by a newer version of the store. The file is left untouched.
  case newerSchema(path: String)
  /// A reader was asked for a history that does not exist yet.
  case missingDatabase(path: String)
  /// The data directory cannot be written: read-only, or not ours.
  case readOnlyDirectory(path: String)
  /// Another store holds the writer's lock on this history.
  case writerExists(lockPath: String, pid: Int32?)
  /// A change was asked of a store opened with ``HistoryStore/Access/reader``.
  case readOnlyStore(path: String)
  /// The disk filled up while writing; the entry being recorded was dropped.
  case diskFull(path: String)
  /// A file operation failed.
  case io(path: String, operation: String, reason: String)
  /// A file given to record could not be read; nothing was recorded.
  case unreadableSource(path: String, reason: String)
  /// A representation's blob file is missing or damaged (removed behind the store's back).
  /// The entry's other representations and the rest of the history still work.
  case blobUnavailable(entry: HistoryEntry.ID, type: String, path: String)
  /// No entry has this id.
  case noSuchEntry(HistoryEntry.ID)
  /// No representation of the entry is at this index.
  case noSuchRepresentation(HistoryEntry.ID, index: Int)
  /// The database failed while in use.
  case database(path: String, reason: String)

  /// One line naming what failed and why.
  public var description: String {
    switch self {
    case .unreadableDatabase(let path, let reason):
      return "\(path): not a readable history database (\(reason)); left untouched"
    case .foreignDatabase(let path):
      return "\(path): not a Ferry history database; left untouched"
    case .newerSchema(let path):
      return "\(path): written by a newer Ferry; left untouched"
    case .missingDatabase(let path):
      return "\(path): no history yet"
    case .readOnlyDirectory(let path):
      return "\(path): the history's directory cannot be written"
    case .writerExists(let lockPath, let pid):
      let holder = pid.map { "process \($0)" } ?? "another process"
      return "\(lockPath): \(holder) already writes this history"
    case .readOnlyStore(let path):
      return "\(path): the history is open read-only"
    case .diskFull(let path):
      return "\(path): the disk is full; the copy was not recorded"
    case .io(let path, let operation, let reason):
      return "\(path): \(operation): \(reason)"
    case .unreadableSource(let path, let reason):
      return "\(path): cannot read the copy's file: \(reason)"
    case .blobUnavailable(let entry, let type, let path):
      return "entry \(entry): the \(type) representation's file \(path) is missing or damaged"
    case .noSuchEntry(let id):
      return "no history entry \(id)"
    case .noSuchRepresentation(let id, let index):
      return "history entry \(id) has no representation \(index)"
    case .database(let path, let reason):
      return "\(path): \(reason)"
    }
  }
}
