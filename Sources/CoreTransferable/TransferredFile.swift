import FoundationEssentials

/// A file a ``FileRepresentation`` exports: where it is, and whether the receiver may use it
/// in place.
///
/// ```swift
/// FileRepresentation(exportedContentType: .mpeg4Movie) { video in
///   SentTransferredFile(video.url)
/// }
/// ```
///
/// Unless opening in place is allowed, the receiver gets a copy, made by the kernel in
/// chunks (the file is never read whole into memory), and the sender's file stays untouched.
public struct SentTransferredFile: Sendable {
  /// The file to send.
  ///
  /// ```swift
  /// SentTransferredFile(url).file == url   // true
  /// ```
  public let file: URL

  /// Whether a receiver that attempts to open in place may get this file itself rather than a
  /// copy.
  ///
  /// ```swift
  /// let sent = SentTransferredFile(url, allowAccessingOriginalFile: true)
  /// sent.allowAccessingOriginalFile   // true
  /// ```
  public let allowAccessingOriginalFile: Bool

  /// Describes a file to send.
  ///
  /// ```swift
  /// SentTransferredFile(video.url)                                    // receivers get a copy
  /// // may be opened in place:
  /// SentTransferredFile(document.url, allowAccessingOriginalFile: true)
  /// ```
  ///
  /// - Parameters:
  ///   - file: A file URL.
  ///   - allowAccessingOriginalFile: Whether a receiver that attempts to open in place may get
  ///     `file` itself.
  public init(_ file: URL, allowAccessingOriginalFile: Bool = false) {
    self.file = file
    self.allowAccessingOriginalFile = allowAccessingOriginalFile
  }
}

/// A file a ``FileRepresentation``'s importer receives.
///
/// Unless ``isOriginalFile`` is `true`, the file is a copy in a temporary directory the
/// transfer owns and removes after the importer returns: move or copy it to keep it.
///
/// ```swift
/// FileRepresentation(importedContentType: .mpeg4Movie) { received in
///   let destination = library.appendingPathComponent(received.file.lastPathComponent)
///   try FileManager.default.copyItem(at: received.file, to: destination)
///   return Video(url: destination)
/// }
/// ```
public struct ReceivedTransferredFile: Sendable {
  /// The received file.
  ///
  /// ```swift
  /// let size = try received.file.resourceValues(forKeys: [.fileSizeKey]).fileSize
  /// ```
  public let file: URL

  /// Whether ``file`` is the sender's own file, opened in place, rather than a copy.
  ///
  /// `true` only when the importer attempts to open in place and the sender allows it.
  ///
  /// ```swift
  /// if received.isOriginalFile { return Document(url: received.file) }
  /// ```
  public let isOriginalFile: Bool

  /// Describes a received file; transfers make these, and so may tests.
  ///
  /// ```swift
  /// let received = ReceivedTransferredFile(file: copy, isOriginalFile: false)
  /// ```
  package init(file: URL, isOriginalFile: Bool) {
    self.file = file
    self.isOriginalFile = isOriginalFile
  }
}
