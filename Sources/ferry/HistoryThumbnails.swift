import FerryClient
import FerryCommandLine
import FerryProtocol
import ImageConversion
import UniformTypeIdentifiers

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Thumbnails of the history's image entries, for the picker (`ferry history --format menu
/// --icons`, which rofi shows with `-show-icons`) and `ferry history show N --thumbnail`: a
/// PNG of at most 128 × 128 pixels, made once per entry from the image the entry stores and
/// kept in `$XDG_CACHE_HOME/ferry/thumbnails` (else `~/.cache/ferry/thumbnails`).
enum HistoryThumbnails {
  /// The largest side of a thumbnail, in pixels.
  static let side = 128

  /// The most pixels an entry's image may have for a thumbnail (as the broker's default).
  static let pixelLimit = ImageConverter.defaultPixelLimit

  /// The cache directory.
  static func directory(_ environment: [String: String] = ProcessInfo.processInfo.environment)
    -> URL
  {
    if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
      return URL(fileURLWithPath: cache + "/ferry/thumbnails")
    }
    let home = environment["HOME"].flatMap { $0.hasPrefix("/") && $0 != "/" ? $0 : nil }
    return URL(fileURLWithPath: (home ?? "/tmp/ferry-\(getuid())") + "/.cache/ferry/thumbnails")
  }

  /// The image type the entry stores first that Ferry decodes, if any.
  static func imageType(of entry: HistoryEntrySummary) -> (identifier: String, ImageFormat)? {
    for identifier in entry.types {
      guard let type = UTType(identifier), let format = ImageFormat(type: type) else { continue }
      return (identifier, format)
    }
    return nil
  }

  /// The thumbnail's file for `entry`, made now when it is not in the cache; `nil` for an
  /// entry with no image.
  ///
  /// Named by the entry's id and size, so that an id the history gives again to another copy
  /// never shows the old picture.
  ///
  /// - Throws: ``CommandFailure`` when the image cannot be read or decoded, or the file
  ///   cannot be written.
  static func file(for entry: HistoryEntrySummary, client: BrokerClient) throws -> URL? {
    guard let (identifier, format) = imageType(of: entry) else { return nil }
    let directory = directory()
    let file = directory.appendingPathComponent("\(entry.id)-\(entry.size).png")
    if FileManager.default.fileExists(atPath: file.path) { return file }
    let (_, data) = try brokerCall { try client.historyShow(entry.id, types: [identifier]) }
    let png: Data
    do {
      png = try RGBAImage.decode(data, as: format, pixelLimit: pixelLimit)
        .fitting(within: side).encoded(as: .png)
    } catch {
      throw CommandFailure(
        "entry \(entry.id)'s image has no thumbnail: \(error)", status: .badInput)
    }
    // Written whole under another name, then renamed over: a picker never shows half a file.
    let part = directory.appendingPathComponent(".\(entry.id)-\(getpid()).part")
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      try png.write(to: part)
    } catch {
      throw CommandFailure(
        "cannot keep the thumbnail in \(directory.path): \(error.plainDescription)",
        status: .io)
    }
    guard rename(part.path, file.path) == 0 else {
      let reason = String(cString: strerror(errno))
      try? FileManager.default.removeItem(at: part)
      throw CommandFailure("cannot keep the thumbnail \(file.path): \(reason)", status: .io)
    }
    return file
  }
}
