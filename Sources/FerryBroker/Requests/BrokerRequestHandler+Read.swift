import FerryProtocol
import Pasteboard
import UniformTypeIdentifiers

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension BrokerRequestHandler {
  /// `read`: the first requested type an item serves — itself, a conforming type, or a
  /// conversion — sent to `sink` as a ``ReadResponse``, DATA frames and END. A file payload
  /// is read 1 MiB at a time on the thread pool, each chunk sent before the next is read, so
  /// a payload of any size costs a few MiB.
  ///
  /// - Throws: ``ProtocolFailure``: the refusals of ``serveRead(of:from:inPlace:answeringTo:)``
  ///   and of ``settledPasteboard(_:)``.
  func read(_ request: ReadRequest, answeringTo sink: some FrameSink) async throws {
    let board = try await settledPasteboard(request.pasteboard)
    try await serveRead(
      of: request.types, from: board, inPlace: request.inPlace == true, answeringTo: sink)
  }

  /// Answers a read of `types` (names as a request gives them; none for the first item's
  /// first stored type) from `board`: a ``ReadResponse`` and the bytes, or a refusal.
  ///
  /// - Parameter inPlace: Whether the client may copy a spooled file itself.
  /// - Throws: ``ProtocolFailure``: `unknownType`, `empty`, `notAvailable`, `providerFailed`
  ///   (a conversion or lazy representation failed), `timeout`, `internal` when a file
  ///   cannot be opened; a closing `internal` when reading a file fails midway (in place of
  ///   END).
  func serveRead(
    of types: [String], from board: Pasteboard, inPlace: Bool, answeringTo sink: some FrameSink
  ) async throws {
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
      try await sink.sendWhole(
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
    let threadPool = configuration.threadPool
    let source = try await PayloadSource.open(payload, threadPool: threadPool)
    let answer = ReadResponse(
      type: choice.served.identifier, requested: choice.requested.identifier)
    let sent: Int
    if case .data(let data) = source, data.count <= FrameSinkLimits.wholeAnswer {
      try await sink.sendWhole(answer, bytes: data)
      sent = data.count
    } else {
      try await sink.send(.response, answer)
      sent = try await sink.stream(source, threadPool: threadPool)
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
    guard path.hasPrefix(state.spool.path + "/") else { return nil }
    var info = stat()
    guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
    return FileReference(
      path: path, device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size)
    )
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
}
