import FerrySystem
import FoundationEssentials
import UniformTypeIdentifiers

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The file operations of transfers: private temporary directories, and copies made by the
/// kernel in chunks so that file payloads never pass through memory whole.
enum FileTransfer {
  /// How much one `sendfile(2)` call copies: large enough to be fast, small enough to check
  /// for cancellation between calls.
  static let chunkSize = 8 << 20

  /// The buffer of the read/write fallback, for file systems where `sendfile(2)` refuses.
  static let fallbackBufferSize = 1 << 20

  /// A new directory, readable only by this user, under the temporary directory.
  static func makeTemporaryDirectory() throws -> URL {
    let base = FileManager.default.temporaryDirectory.path
    var template = Array((base + "/ferry-transfer-XXXXXX").utf8CString)
    let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    guard created != nil else {
      throw FileTransferError(operation: "create a temporary directory in", path: base)
    }
    let path = String(
      decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return URL(fileURLWithPath: path, isDirectory: true)
  }

  /// Removes a directory the transfer made, and what is in it; failures are ignored, since
  /// the importer may have moved things out of it.
  static func removeDirectory(_ directory: URL) {
    try? FileManager.default.removeItem(at: directory)
  }

  /// Copies `source` into a new file named `fileName` (or `fileName 2`, … when taken) in
  /// `directory`, and returns the new file.
  ///
  /// A directory (a package such as `.rtfd`, or a folder) is copied whole, file by file.
  static func copy(_ source: URL, into directory: URL, fileName: String) throws -> URL {
    var status = stat()
    if stat(source.path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
      return try copyDirectory(source, into: directory, fileName: fileName)
    }
    let input: FileDescriptor
    do {
      input = try FileDescriptor.open(atPath: source.path, .readOnly)
    } catch {
      throw FileTransferError(error)
    }
    defer { try? input.close() }
    return try createFile(in: directory, fileName: fileName) { output, path in
      try copyContents(
        from: input.rawValue, sourcePath: source.path, to: output, destinationPath: path)
    }
  }

  /// Copies a directory tree under a name not yet taken in `directory`.
  private static func copyDirectory(_ source: URL, into directory: URL, fileName: String) throws
    -> URL
  {
    try Task.checkCancellation()
    for attempt in 1... {
      let url = directory.appendingPathComponent(candidate(fileName, attempt), isDirectory: true)
      // Reserve the name, then copy into it: FileManager refuses to copy onto an existing item.
      guard mkdir(url.path, 0o700) == 0 else {
        if errno == EEXIST { continue }
        throw FileTransferError(operation: "create", path: url.path)
      }
      do {
        rmdir(url.path)
        try FileManager.default.copyItem(at: source, to: url)
      } catch {
        try? FileManager.default.removeItem(at: url)
        throw error
      }
      return url
    }
    preconditionFailure("unreachable")
  }

  /// `name` for the first attempt, then `stem 2.ext`, `stem 3.ext`, …
  private static func candidate(_ name: String, _ attempt: Int) -> String {
    guard attempt > 1 else { return name }
    let (stem, ext) = splitExtension(name)
    return ext.isEmpty ? "\(stem) \(attempt)" : "\(stem) \(attempt).\(ext)"
  }

  /// Writes `data` into a new file named `fileName` (or `fileName 2`, … when taken) in
  /// `directory`, and returns the new file.
  static func write(_ data: Data, into directory: URL, fileName: String) throws -> URL {
    try createFile(in: directory, fileName: fileName) { output, path in
      try data.withUnsafeBytes { buffer in try writeAll(buffer, to: output, path: path) }
    }
  }

  /// The whole contents of a file, for representations that asked for `Data`.
  static func readAll(_ file: URL) throws -> Data {
    try Data(wholeFileAt: file)
  }

  /// A file name made from a suggestion, or from `fallback`, with the content type's preferred
  /// extension when the name has none, and no path separators.
  static func fileName(suggested: String?, fallback: String, contentType: UTType) -> String {
    var name = (suggested ?? fallback).map { $0 == "/" || $0 == "\0" ? "-" : $0 }
      .reduce(into: "") { $0.append($1) }
    if name.isEmpty || name == "." || name == ".." {
      name = fallback.isEmpty ? "export" : fallback
    }
    if splitExtension(name).ext.isEmpty, let ext = filenameExtension(of: contentType) {
      name += "." + ext
    }
    return name
  }

  /// A file name's stem and extension, split at its last dot as `NSString`'s
  /// `pathExtension` does: none for a name that starts with its only dots (`.bashrc`), an
  /// empty one after a trailing dot (`file.`).
  static func splitExtension(_ name: String) -> (stem: String, ext: String) {
    guard let dot = name.lastIndex(of: "."), name[..<dot].contains(where: { $0 != "." }) else {
      return (name, "")
    }
    return (String(name[..<dot]), String(name[name.index(after: dot)...]))
  }

  /// The content type's preferred filename extension, or else that of its most specific
  /// supertype that has one (`txt` for UTF-8 plain text, through plain text).
  static func filenameExtension(of contentType: UTType) -> String? {
    if let ext = contentType.preferredFilenameExtension { return ext }
    let candidates = contentType.supertypes
      .filter { $0.preferredFilenameExtension != nil }
      .sorted { $0.identifier < $1.identifier }
    let mostSpecific = candidates.first { candidate in
      !candidates.contains { $0 != candidate && $0.conforms(to: candidate) }
    }
    return mostSpecific?.preferredFilenameExtension
  }

  /// Creates a file that did not exist, trying `name`, `name 2`, `name 3`, … and fills it with
  /// `fill`; a file that fails to fill is removed.
  private static func createFile(
    in directory: URL, fileName: String, fill: (CInt, String) throws -> Void
  ) throws -> URL {
    for attempt in 1... {
      let url = directory.appendingPathComponent(candidate(fileName, attempt), isDirectory: false)
      let output: FileDescriptor
      do {
        output = try FileDescriptor.createExclusive(
          atPath: url.path, permissions: FilePermissions(rawValue: 0o666))
      } catch  where error.code == .fileExists {
        continue
      } catch {
        throw FileTransferError(error)
      }
      do {
        try fill(output.rawValue, url.path)
      } catch {
        try? output.close()
        unlink(url.path)
        throw error
      }
      do {
        try output.close()
      } catch {
        unlink(url.path)
        throw FileTransferError(
          operation: "close", path: url.path, code: error as? Errno ?? .ioError)
      }
      return url
    }
    preconditionFailure("unreachable")
  }

  /// Copies the rest of `input` to `output`: `sendfile(2)` in chunks, or a small buffer where
  /// the file systems refuse it. Stops with `CancellationError` when the task is cancelled.
  private static func copyContents(
    from input: CInt, sourcePath: String, to output: CInt, destinationPath: String
  ) throws {
    while true {
      try Task.checkCancellation()
      do {
        if try Errno.retryingInterrupts({ sendfile(output, input, nil, chunkSize) }) == 0 { return }
      } catch .resourceTemporarilyUnavailable {
        continue
      } catch .invalidArgument, .noFunction, .notSupportedOnSocket {
        return try copyWithBuffer(from: input, sourcePath, to: output, destinationPath)
      } catch {
        throw FileTransferError(operation: "copy", path: sourcePath, code: error)
      }
    }
  }

  private static func copyWithBuffer(
    from input: CInt, _ sourcePath: String, to output: CInt, _ destinationPath: String
  ) throws {
    try Task.checkCancellation()
    do {
      try FileDescriptor(rawValue: input).readChunks(
        path: sourcePath, chunkSize: fallbackBufferSize
      ) { chunk in
        try Task.checkCancellation()
        try FileDescriptor(rawValue: output).writeAll(from: chunk, path: destinationPath)
      }
    } catch let error as FileError {
      throw FileTransferError(error)
    }
  }

  private static func writeAll(_ bytes: UnsafeRawBufferPointer, to output: CInt, path: String)
    throws
  {
    do {
      try FileDescriptor(rawValue: output).writeAll(from: bytes, path: path)
    } catch {
      throw FileTransferError(error)
    }
  }
}

/// A file operation of a transfer failed; the message names the operation, the path and the
/// system's reason.
struct FileTransferError: Error, CustomStringConvertible {
  let operation: String
  let path: String
  let code: Errno

  init(operation: String, path: String, code: Errno = .last) {
    self.operation = operation
    self.path = path
    self.code = code
  }

  /// A failed FerrySystem file call.
  init(_ error: FileError) {
    self.init(operation: error.operation, path: error.path, code: error.code)
  }

  var description: String {
    "cannot \(operation) \(path): \(code)"
  }
}
