import Dispatch
import FerryProtocol
import FerrySystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Tells when the socket file may have gone: an `inotify(7)` watch on the socket's directory
/// for entries removed or renamed away, and for the directory itself going.
///
/// The watch's descriptor is read by a Dispatch source, so the broker wakes only when such
/// an event happens, never on a timer. Events about other files of the directory (other
/// displays' sockets) are ignored.
///
/// ```swift
/// let watch = SocketDirectoryWatch(SocketPath(path: "/run/user/1000/ferry/display-0.sock"))
/// for await _ in watch!.changes { … check the socket file … }
/// ```
final class SocketDirectoryWatch: Sendable {
  /// One element each time the file or its directory may have gone; ends at ``cancel()``.
  let changes: AsyncStream<Void>

  private let descriptor: Int32
  private let directory: String
  /// The Dispatch source reading the watch; `nil` once cancelled.
  private let source: TrackedMutex<(any DispatchSourceRead)?>
  private let continuation: AsyncStream<Void>.Continuation

  private static let mask = UInt32(
    IN_DELETE | IN_MOVED_FROM | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

  /// Watches the directory of `location`; `nil` when inotify is unavailable (the instance
  /// limit reached, say), in which case nothing is watched.
  init?(_ location: SocketPath) {
    let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    guard descriptor >= 0 else { return nil }
    guard inotify_add_watch(descriptor, location.directory, Self.mask) >= 0 else {
      close(descriptor)
      return nil
    }
    self.descriptor = descriptor
    directory = location.directory
    (changes, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    let reader = DispatchSource.makeReadSource(
      fileDescriptor: descriptor, queue: DispatchQueue(label: "ferry.socket-watch"))
    let fileName = location.fileName
    let continuation = self.continuation
    reader.setEventHandler {
      if Self.drain(descriptor, concerning: fileName) { continuation.yield() }
    }
    reader.setCancelHandler { close(descriptor) }
    reader.resume()
    source = TrackedMutex(reader)
  }

  /// Watches the directory again: after it was removed and made anew, the watch was on the
  /// old one.
  func watchAgain() {
    _ = inotify_add_watch(descriptor, directory, Self.mask)
  }

  /// Stops watching; ``changes`` ends.
  func cancel() {
    source.withLock { source in
      source?.cancel()
      source = nil
    }
    continuation.finish()
  }

  /// Reads every pending event; whether one is about `fileName` or the directory itself.
  private static func drain(_ descriptor: Int32, concerning fileName: String) -> Bool {
    let headerSize = MemoryLayout<inotify_event>.size
    var relevant = false
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count =
        (try? buffer.withUnsafeMutableBytes {
          try FileDescriptor(rawValue: descriptor).read(into: $0)
        }) ?? 0
      guard count > 0 else { return relevant }
      buffer.withUnsafeBytes { bytes in
        var offset = 0
        while offset + headerSize <= count {
          let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
          let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
          let nameBytes = bytes[(offset + headerSize)..<min(offset + headerSize + length, count)]
          let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
          let aboutDirectory = UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED | IN_Q_OVERFLOW)
          if mask & aboutDirectory != 0 || name == fileName { relevant = true }
          offset += headerSize + length
        }
      }
    }
  }
}
