import FerryProtocol
import FerrySystem
import NIOCore
import NIOPosix
import Pasteboard

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

/// Where the bytes of a read come from: memory, or a file opened before the answer is sent
/// (so that a file that cannot be opened is a clean refusal, not a broken stream).
enum PayloadSource {
  /// Bytes in memory.
  case data(Data)
  /// A file, open, read from its start.
  case file(FileChunkReader)

  /// The source of `payload`; a file is opened on `threadPool`.
  ///
  /// - Throws: An `internal` refusal when the file cannot be opened.
  static func open(_ payload: PasteboardPayload, threadPool: NIOThreadPool) async throws
    -> PayloadSource
  {
    switch payload {
    case .data(let data):
      return .data(data)
    case .file(let url):
      do {
        return .file(try await threadPool.runIfActive { try FileChunkReader(path: url.path) })
      } catch let failure as ProtocolFailure {
        throw failure
      } catch {
        throw ProtocolFailure.refusal(.internal, "\(error)")
      }
    }
  }
}

/// Reads a file as ready-made DATA frames, on a thread pool.
final class FileChunkReader: Sendable {
  private let descriptor: Int32
  private let path: String

  /// Opens the file at `path`.
  ///
  /// - Throws: An `internal` refusal when it cannot be opened.
  init(path: String) throws(ProtocolFailure) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw .refusal(.internal, "cannot open \(path): \(Errno.last)")
    }
    self.descriptor = descriptor
    self.path = path
  }

  deinit { close(descriptor) }

  /// The next DATA frame (up to 1 MiB of the file), or `nil` at the end of the file.
  ///
  /// - Throws: A closing `internal` failure when reading fails.
  func nextDataFrame() throws(ProtocolFailure) -> ByteBuffer? {
    let chunk = FrameLimits.maxDataBody
    var buffer = ByteBufferAllocator().buffer(capacity: Frame.headerSize + chunk)
    buffer.writeBytes(Frame.header(kind: .data, bodyCount: 0))
    var failure: Errno?
    let count = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: chunk) { free in
      do throws(Errno) {
        return try FileDescriptor(rawValue: descriptor).read(
          filling: UnsafeMutableRawBufferPointer(rebasing: free[..<chunk]))
      } catch {
        failure = error
        return 0
      }
    }
    if let failure {
      throw .fatal(.internal, "reading \(path) failed: \(failure)")
    }
    if count == 0 { return nil }
    buffer.setInteger(UInt32(count + 1), at: 0)
    return buffer
  }
}
