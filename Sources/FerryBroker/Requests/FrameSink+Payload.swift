import FerryProtocol
import NIOCore
import NIOPosix

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// How a read's bytes are cut into writes.
enum FrameSinkLimits {
  /// The largest payload sent in one write with its answer.
  static let wholeAnswer = 64 << 10
}

extension FrameSink {
  /// Sends `answer`, `bytes` as one DATA frame (none when empty or `nil`) and END in one
  /// write: one trip to the event loop instead of three, most of a short paste's wait.
  func sendWhole(_ answer: ReadResponse, bytes: Data?) async throws {
    var buffer = ByteBuffer(frame: try Frame.json(.response, answer))
    if let bytes, !bytes.isEmpty {
      var data = bytes.withUnsafeBytes { ByteBuffer(dataFrameWith: $0) }
      buffer.writeBuffer(&data)
    }
    var end = ByteBuffer(frame: Frame(kind: .end))
    buffer.writeBuffer(&end)
    try await write(buffer)
  }

  /// Sends a payload as DATA frames of at most 1 MiB and an END frame; a file is read a
  /// chunk at a time on `threadPool`.
  ///
  /// - Returns: The number of bytes sent.
  /// - Throws: A closing ``ProtocolFailure`` when reading a file fails midway: the client gets
  ///   an ERROR frame in place of END.
  func stream(_ source: PayloadSource, threadPool: NIOThreadPool) async throws -> Int {
    var sent = 0
    switch source {
    case .data(let data):
      var offset = data.startIndex
      while offset < data.endIndex {
        let end = min(offset + FrameLimits.maxDataBody, data.endIndex)
        try await write(data[offset..<end].withUnsafeBytes { ByteBuffer(dataFrameWith: $0) })
        sent += end - offset
        offset = end
      }
    case .file(let reader):
      while true {
        let chunk: ByteBuffer?
        do {
          chunk = try await threadPool.runIfActive { try reader.nextDataFrame() }
        } catch {
          throw ProtocolFailure.fatal(.internal, "\(error); the data sent so far is incomplete")
        }
        guard let chunk else { break }
        sent += chunk.readableBytes - Frame.headerSize
        try await write(chunk)
      }
    }
    try await write(ByteBuffer(frame: Frame(kind: .end)))
    return sent
  }
}
