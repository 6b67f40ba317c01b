import NIOPosix
import Pasteboard
import UniformTypeIdentifiers

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Collects one representation's bytes: in memory up to the spool threshold, then in a spool
/// file written on the thread pool.
struct RepresentationSink {
  /// The representation's type.
  let type: UTType
  /// `nil` keeps everything in memory (a concealed item).
  let spoolThreshold: Int?
  /// Where the bytes go past the threshold.
  let spool: SpoolDirectory
  /// The threads that write the spool file.
  let threadPool: NIOThreadPool
  private var memory = Data()
  private var writer: SpoolWriter?
  /// The bytes received.
  private(set) var count = 0

  /// A sink for a representation of `type`.
  init(type: UTType, spoolThreshold: Int?, spool: SpoolDirectory, threadPool: NIOThreadPool) {
    self.type = type
    self.spoolThreshold = spoolThreshold
    self.spool = spool
    self.threadPool = threadPool
  }

  /// Appends `bytes`: to memory, or to the spool file once past the threshold.
  ///
  /// - Throws: ``SpoolError`` when the spool file cannot be made or written.
  mutating func append(_ bytes: [UInt8]) async throws {
    count += bytes.count
    if let writer {
      try await threadPool.runIfActive { try writer.write(bytes) }
      return
    }
    memory.append(contentsOf: bytes)
    if let threshold = spoolThreshold, memory.count > threshold {
      let writer = try spool.makeFile()
      let pending = memory
      memory = Data()
      try await threadPool.runIfActive { try writer.write(pending) }
      self.writer = writer
    }
  }

  /// The representation: the bytes in memory, or the spool file, owned by the item.
  func finish() -> PasteboardRepresentation {
    if let writer { return writer.finish().representation(of: type) }
    return .data(memory, type: type)
  }
}
