import FerryProtocol
import FerrySync
import FerrySystem
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// What the other end of a `ferry sync` link sends (a remote broker, or whatever a login script
/// or a broken ferry writes): read by a real session of a real engine, over a pipe, until the
/// bytes end. Never a crash or a hang; the reason a link ends is one line; every item it takes
/// has the types and sizes its offer announced and fits the limit; every message read
/// survives its frame. With the first byte odd, a valid hello goes first, so that the rest
/// reaches the messages and the items.
let syncLinkTarget = FuzzTarget(name: "sync-link") { bytes in
  let stream: [UInt8]
  if let first = bytes.first, first & 1 == 1 {
    stream = SyncFuzzPeer.hello + bytes.dropFirst()
  } else {
    stream = Array(bytes.dropFirst())
  }
  var decoder = FrameDecoder()
  decoder.feed(stream)
  while let frame = try? decoder.nextFrame() {
    guard frame.kind == .event, let message = try? SyncMessage(frame: frame) else { continue }
    let again = try? SyncMessage(frame: message.frame)
    require(again == message, "\(message) does not survive its frame")
  }
  var ends: [Int32] = [0, 0]
  require(pipe(&ends) == 0, "no pipe")
  // A fuzz input is far smaller than a pipe's buffer: written whole before it is read.
  let written = stream.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
  require(written == stream.count, "the pipe took \(written) of \(stream.count) bytes")
  close(ends[1])
  let channel = FramedChannel(
    input: FileDescriptor(rawValue: ends[0]), output: FileDescriptor(rawValue: SyncFuzzPeer.sink))
  do throws(SyncLinkError) {
    try SyncFuzzPeer.engine.run(channel, record: SyncLinkRecord(host: "fuzz"), initiator: true)
  } catch {
    require(!"\(error)".contains("\n"), "the link's end is more than one line: \(error)")
  }
  close(ends[0])
}

/// The engine the sync target's sessions share, over a pasteboard that checks what it is
/// given.
private enum SyncFuzzPeer {
  static let settings = SyncSettings(maximumBytes: 1 << 20, eagerBytes: 4 << 10)
  static let engine: SyncEngine = {
    let engine = SyncEngine(local: CheckingPasteboards(), settings: settings, hostName: "fuzz")
    try? engine.start()
    return engine
  }()
  static let sink = open("/dev/null", O_WRONLY)
  static let hello = SyncMessage.hello(
    SyncMessage.Hello(
      node: "remote", host: "remote", software: "fuzz", broker: "headless", current: nil,
      lastSynced: nil)
  ).frame.encoded()
}

/// A machine's pasteboard for the sync target: empty, and requiring of every item written that
/// it is whole.
private struct CheckingPasteboards: LocalPasteboards {
  func report(links: [SyncLinkStatus], clock: Int?) throws -> SyncReportResponse {
    SyncReportResponse(node: "local", clock: clock ?? 0)
  }

  func watch(_ pasteboards: [String], handler: @escaping @Sendable (PasteboardState) -> Bool)
    throws
  {
    _ = handler(
      PasteboardState(
        pasteboard: "general", changeCount: 0, types: [], storedTypes: [], concealed: false))
  }

  func read(_ types: [String], of state: PasteboardState, limit: Int) throws -> LocalRead {
    .changed
  }

  func write(_ item: SyncItem, from host: String) throws -> Bool {
    require(!item.representations.isEmpty, "an item with no representation was taken")
    require(
      item.totalBytes <= SyncFuzzPeer.settings.maximumBytes,
      "an item of \(item.totalBytes) bytes was taken past the limit")
    require(
      Set(item.representations.map(\.type)).count == item.representations.count,
      "an item with a type twice was taken")
    return true
  }
}
