import FerryProtocol
import FerrySystem
import NIOCore
import NIOPosix
import Pasteboard
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

extension BrokerSocketConnection {
  /// `read`: the first requested type an item serves — itself, a conforming type, or a
  /// conversion — streamed as DATA frames. A file payload is read 1 MiB at a time on the
  /// thread pool, each chunk sent before the next is read once the channel is writable, so a
  /// payload of any size costs a few MiB.
  mutating func read(_ request: ReadRequest) async throws {
    let board = try await settledPasteboard(request.pasteboard)
    try await serveRead(of: request.types, from: board, inPlace: request.inPlace == true)
  }

  /// Answers a read of `types` (names as a request gives them; none for the first item's
  /// first stored type) from `board`: a ``ReadResponse`` and the bytes, or a refusal.
  ///
  /// - Parameter inPlace: Whether the client may copy a spooled file itself.
  func serveRead(of types: [String], from board: Pasteboard, inPlace: Bool) async throws {
    var wanted: [UTType] = []
    for name in types { wanted.append(try Self.type(named: name)) }
    let items = board.items
    guard let first = items.first else {
      throw ProtocolFailure(PasteboardError.empty(board.name))
    }
    // No type asked for: the first item's first stored type, as `pbpaste` without `--type`.
    let asked = wanted.isEmpty ? Array(first.storedTypes.prefix(1)) : wanted
    guard let choice = board.choice(for: asked) else {
      throw Self.notAvailable(wanted, offered: board.types, in: board)
    }
    let payload: PasteboardPayload
    do {
      payload = try await choice.item.payload(for: choice.requested)
    } catch let error as PasteboardError {
      throw ProtocolFailure(error)
    }
    if inPlace, let file = spooledFile(payload) {
      try await sendWhole(
        ReadResponse(
          type: choice.served.identifier, requested: choice.requested.identifier, file: file),
        bytes: nil)
      logger.debug(
        "handed over a spooled file",
        metadata: [
          "pasteboard": "\(board.name.rawValue)", "type": "\(choice.served.identifier)",
          "bytes": "\(file.size)",
        ])
      return
    }
    let source = try await PayloadSource.open(payload, threadPool: context.configuration.threadPool)
    let answer = ReadResponse(
      type: choice.served.identifier, requested: choice.requested.identifier)
    let sent: Int
    if case .data(let data) = source, data.count <= Self.wholeAnswerLimit {
      try await sendWhole(answer, bytes: data)
      sent = data.count
    } else {
      try await send(.response, answer)
      sent = try await stream(source)
    }
    if choice.item.options.contains(.concealed) {
      logger.debug(
        "served a concealed item",
        metadata: ["pasteboard": "\(board.name.rawValue)", "bytes": "\(sent)"])
    } else {
      logger.debug(
        "served",
        metadata: [
          "pasteboard": "\(board.name.rawValue)", "type": "\(choice.served.identifier)",
          "bytes": "\(sent)",
        ])
    }
  }

  /// The file a client may copy itself: a file of this broker's spool (a copy written through
  /// the socket, or a large conversion; each written whole before it is served, never
  /// changed, private to this user). Other files — one a Transferable names — are streamed.
  func spooledFile(_ payload: PasteboardPayload) -> FileReference? {
    guard case .file(let url) = payload else { return nil }
    let path = url.path
    guard path.hasPrefix(context.spool.path + "/") else { return nil }
    var info = stat()
    guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
    return FileReference(
      path: path, device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size)
    )
  }

  /// The largest payload sent in one write with its answer.
  static let wholeAnswerLimit = 64 << 10

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
    try await outbound.write(buffer)
  }

  /// Sends a payload as DATA frames and an END frame.
  ///
  /// - Returns: The number of bytes sent.
  /// - Throws: A closing ``ProtocolFailure`` when reading a file fails midway: the client gets
  ///   an ERROR frame in place of END.
  func stream(_ source: PayloadSource) async throws -> Int {
    var sent = 0
    switch source {
    case .data(let data):
      var offset = data.startIndex
      while offset < data.endIndex {
        let end = min(offset + FrameLimits.maxDataBody, data.endIndex)
        try await outbound.write(
          data[offset..<end].withUnsafeBytes { ByteBuffer(dataFrameWith: $0) })
        sent += end - offset
        offset = end
      }
    case .file(let reader):
      let pool = context.configuration.threadPool
      while true {
        let chunk: ByteBuffer?
        do {
          chunk = try await pool.runIfActive { try reader.nextDataFrame() }
        } catch {
          throw ProtocolFailure.fatal(.internal, "\(error); the data sent so far is incomplete")
        }
        guard let chunk else { break }
        sent += chunk.readableBytes - Frame.headerSize
        try await outbound.write(chunk)
      }
    }
    try await outbound.write(ByteBuffer(frame: Frame(kind: .end)))
    return sent
  }

  /// The refusal for a read nothing serves, naming what was asked and what is offered.
  static func notAvailable(_ wanted: [UTType], offered: [UTType], in board: Pasteboard)
    -> ProtocolFailure
  {
    if wanted.count == 1 {
      return ProtocolFailure(PasteboardError.typeNotAvailable(wanted[0], offered: offered))
    }
    let list = offered.prefix(6).map(\.identifier).joined(separator: ", ")
    let more = offered.count > 6 ? ", …" : ""
    let names = wanted.map(\.identifier).joined(separator: ", ")
    return .refusal(
      .notAvailable,
      offered.isEmpty
        ? "none of \(names) is available"
        : "none of \(names) is available (the item offers \(list)\(more))")
  }

  /// `watch`: a RESPONSE, then an EVENT for each change of the pasteboards until the client
  /// closes. An event carries the types and the concealed flag, never bytes. A change that a
  /// newer one replaced before its event was sent is not reported: every event describes the
  /// pasteboard as it was at that change count.
  mutating func watch(_ request: WatchRequest) async throws {
    var names: [Pasteboard.Name] = []
    for name in request.pasteboards ?? WireProtocol.defaultWatchedPasteboards {
      let name = try Self.pasteboardName(name)
      if !names.contains(name) { names.append(name) }
    }
    let boards = names.map { context.pasteboard($0) }
    // Subscribe before answering, so that no change after the answer is missed.
    let changes = boards.map(\.changes)
    try await send(.response, WatchResponse(pasteboards: names.map(\.rawValue)))
    logger.debug("watching", metadata: ["pasteboards": "\(names.map(\.rawValue))"])
    let (events, sink) = AsyncStream.makeStream(of: (Int, Int).self)
    let outbound = self.outbound
    try await withThrowingTaskGroup(of: Void.self) { group in
      for (index, stream) in changes.enumerated() {
        group.addTask {
          for await count in stream { sink.yield((index, count)) }
        }
      }
      group.addTask {
        for await (index, count) in events {
          let board = boards[index]
          guard board.changeCount == count else { continue }  // superseded
          let state = Self.state(of: board, changeCount: count)
            .fitting(within: PasteboardState.budget(sharing: 1))
          guard board.changeCount == count else { continue }  // changed while read
          try await outbound.write(ByteBuffer(frame: try Frame.json(.event, state)))
        }
      }
      // The client sends nothing more; the end of its stream ends the watch.
      while let frame = try await nextFrame() {
        throw ProtocolFailure.fatal(
          .badRequest, "a \(frame.kind) frame during watch (close the connection to stop)")
      }
      sink.finish()
      group.cancelAll()
    }
  }
}

/// Where the bytes of a read come from: memory, or a file opened before the answer is sent
/// (so that a file that cannot be opened is a clean refusal, not a broken stream).
enum PayloadSource {
  case data(Data)
  case file(FileChunkReader)

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
