import FoundationEssentials
import Pasteboard
import UniformTypeIdentifiers

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One draggable entry of a drag window: a label and the item it drags.
public struct DragEntry: Sendable {
  /// What the window shows for the entry.
  public var label: String
  /// What a drop delivers.
  public var item: PasteboardItem

  /// An entry with any item.
  public init(label: String, item: PasteboardItem) {
    self.label = label
    self.item = item
  }

  /// An entry dragging files: `text/uri-list` first (and the file-URL types and paths as text
  /// through conversion), then, for one regular file, its contents as the type its extension
  /// names, streamed from the file.
  ///
  /// - Parameters:
  ///   - files: Absolute file URLs.
  ///   - label: The label; the path of a single file, or "N files", by default.
  public static func files(_ files: [URL], label: String? = nil) -> DragEntry {
    let uriList = files.map { $0.absoluteURL.standardizedFileURL.absoluteString + "\r\n" }.joined()
    var representations: [PasteboardRepresentation] = [.data(Data(uriList.utf8), type: .uriList)]
    if files.count == 1, let file = files.first, let type = contentType(of: file) {
      representations.append(.file(file, type: type))
    }
    let text = label ?? (files.count == 1 ? files[0].path : "\(files.count) files")
    return DragEntry(label: text, item: PasteboardItem(representations: representations))
  }

  /// The declared type a regular file's extension names, if any.
  static func contentType(of file: URL) -> UTType? {
    var status = stat()
    guard stat(file.path, &status) == 0, status.st_mode & S_IFMT != S_IFDIR,
      !file.pathExtension.isEmpty, let type = UTType(filenameExtension: file.pathExtension),
      !type.isDynamic
    else { return nil }
    return type
  }
}
