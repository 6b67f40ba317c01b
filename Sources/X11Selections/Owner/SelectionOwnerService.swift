import FerrySystem
import FoundationEssentials
import Pasteboard
import UniformTypeIdentifiers

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The owner side of the selection protocol: serves pasteboard items to X requestors.
///
/// ICCCM §2.2 (responsibilities of the owner), §2.6 (targets), §2.7.2 (INCR).
/// https://www.x.org/releases/X11R7.6/doc/xorg-docs/specs/ICCCM/icccm.html
///
/// Requests are answered from the X thread, but producing data (lazy providers,
/// conversions) runs in tasks: a slow provider delays only its own requestor. Each INCR
/// transfer is a state machine keyed by requestor and property; a requestor that stops
/// deleting the property loses its transfer after ``stepTimeout``.
final class SelectionOwnerService {
  /// How long a requestor may take to delete an INCR chunk before its transfer is dropped,
  /// unless told otherwise (``X11Display/setServingStepTimeout(_:)``). Qt waits 5 s per step;
  /// the same bound here keeps a dead requestor from holding memory.
  static let defaultStepTimeout: Duration = .seconds(5)

  /// How long a requestor may take to delete an INCR chunk.
  var stepTimeout = defaultStepTimeout

  /// The largest payload sent in one request, and the size of INCR chunks, unless told
  /// otherwise (``X11Display/setServingChunkBytes(_:)``): 1 MiB, as xclip sends (GTK 256 KiB,
  /// Qt about the server's maximum). Each chunk lies in the X server until its requestor
  /// takes it, and in the owner's one buffer: at 4 MiB (BIG-REQUESTS allows 16) five readers
  /// stalled in INCR held 20 MiB in the server. Larger chunks are not faster either: past
  /// 1 MiB the server and the reader spend more CPU time per byte, and 100 MiB took longer
  /// at 2, 4 and 16 MiB (`Scripts/bench-x11 --only chunks`, docs/PERFORMANCE.md).
  static let defaultChunkBytes = 1 << 20

  /// The size of INCR chunks asked for, if not ``defaultChunkBytes``.
  var requestedChunkBytes: Int?

  /// The largest payload sent in one request, and the size of INCR chunks: what was asked
  /// for, within what the server takes.
  var chunkBytes: Int {
    min(requestedChunkBytes ?? Self.defaultChunkBytes, connection.maximumRequestBytes)
  }

  struct Ownership {
    var item: PasteboardItem
    var time: XTimestamp
    var targets: TargetTable?
    var onLost: @Sendable () -> Void
  }

  private struct TransferKey: Hashable {
    var requestor: XWindow
    var property: XAtom
  }

  private final class Transfer {
    var send: IncrementalSend
    let source: ChunkSource
    let type: XAtom
    var timer: UUID?

    init(send: IncrementalSend, source: ChunkSource, type: XAtom) {
      self.send = send
      self.source = source
      self.type = type
    }
  }

  unowned let session: X11Session
  private var connection: X11Connection { session.connection }
  private var atoms: Atoms { session.connection.atoms }
  private(set) var ownerships: [XAtom: Ownership] = [:]
  private var transfers: [TransferKey: Transfer] = [:]
  /// Where file chunks are read; freed whenever no transfer is left.
  private let chunkBuffer = ChunkBuffer()

  init(session: X11Session) {
    self.session = session
  }

  // MARK: Ownership

  /// Takes `selection` with a real server time and serves `item` on it.
  ///
  /// With `onlyIfUnowned`, the selection is taken only if nobody owns it, and never from an
  /// owner that takes it meanwhile: the time is read before the owner is looked at, so an
  /// owner that comes after the look has set a later time, and the server ignores ours
  /// (ICCCM §2.1).
  ///
  /// - Throws: ``X11Error/ownershipRefused(_:)`` when the server did not make us the owner,
  ///   or when `onlyIfUnowned` and somebody owns it.
  func own(
    _ selection: XAtom, item: PasteboardItem, onlyIfUnowned: Bool = false,
    onLost: @escaping @Sendable () -> Void
  ) throws -> XTimestamp {
    let time = session.serverTime()
    if onlyIfUnowned, connection.selectionOwner(selection) != .none {
      throw X11Error.ownershipRefused(connection.selection(named: selection) ?? "selection")
    }
    connection.setSelectionOwner(selection, session.window, time: time)
    guard connection.selectionOwner(selection) == session.window else {
      throw X11Error.ownershipRefused(connection.selection(named: selection) ?? "selection")
    }
    let previous = ownerships[selection]
    ownerships[selection] = Ownership(item: item, time: time, targets: nil, onLost: onLost)
    if previous != nil { /* replaced by our own new item: not a loss */  }
    return time
  }

  /// Takes `selection` from `keeper` — the desktop's restore of a copy, owned since a known
  /// time — and serves `item`, only if `keeper` still owns it: the request carries the
  /// keeper's own time, the selection's last change, so the server ignores it if anyone took
  /// the selection after (ICCCM §2.1), the keeper's own window included.
  ///
  /// - Throws: ``X11Error/ownershipRefused(_:)`` when the selection changed since.
  func replace(
    _ selection: XAtom, keptBy keeper: SelectionOwnership, item: PasteboardItem,
    onLost: @escaping @Sendable () -> Void
  ) throws -> XTimestamp {
    let refused = X11Error.ownershipRefused(connection.selection(named: selection) ?? "selection")
    guard keeper.since != .current, connection.selectionOwner(selection) == keeper.window else {
      throw refused
    }
    connection.setSelectionOwner(selection, session.window, time: keeper.since)
    guard connection.selectionOwner(selection) == session.window else { throw refused }
    ownerships[selection] = Ownership(
      item: item, time: keeper.since, targets: nil, onLost: onLost)
    return keeper.since
  }

  /// Gives `selection` up.
  func disown(_ selection: XAtom) {
    guard let ownership = ownerships.removeValue(forKey: selection) else { return }
    clearing.insert(selection)
    connection.setSelectionOwner(selection, .none, time: ownership.time)
  }

  /// The selections this connection set to None and has not yet seen XFixes report.
  private var clearing: Set<XAtom> = []

  /// Whether the selection's owner set to None, as XFixes reports it, is this connection's
  /// own ``disown(_:)``: the report is then taken off the list.
  func takeOwnClear(of selection: XAtom) -> Bool {
    clearing.remove(selection) != nil
  }

  func handleClear(selection: XAtom, time: XTimestamp) {
    guard let ownership = ownerships[selection] else { return }
    // A clear older than our own ownership refers to an earlier owner of ours (ICCCM §2.2).
    if time != .current && time < ownership.time { return }
    ownerships[selection] = nil
    ownership.onLost()
  }

  func dropAll() {
    ownerships.removeAll()
    for transfer in transfers.values { transfer.source.close() }
    transfers.removeAll()
    chunkBuffer.release()
  }

  // MARK: Requests

  func handle(_ request: X11Event.SelectionRequest) {
    // Obsolete requestors name no property: use the target's name (ICCCM §2.2).
    let property = request.property == .none ? request.target : request.property
    guard let ownership = ownerships[request.selection],
      request.time == .current || !(request.time < ownership.time)
    else {
      refuse(request)
      return
    }
    switch request.target {
    case atoms[.targets]:
      let forMutter = isMutter(asking: property)
      withTargets(of: request.selection) { service, table in
        let names =
          forMutter
          ? MutterSelectionBridge.targetsForMutter(table.entries.map(\.name))
          : table.entries.map(\.name) + ["TARGETS", "TIMESTAMP", "MULTIPLE", "SAVE_TARGETS"]
        let list = service.connection.atoms(names).map(\.rawValue)
        service.connection.setProperty(of: request.requestor, property, type: .atom, values: list)
        service.reply(request, property: property)
      }
    case atoms[.timestamp]:
      connection.setProperty(
        of: request.requestor, property, type: .integer, values: [ownership.time.rawValue])
      reply(request, property: property)
    case atoms[.saveTargets]:
      // A side-effect target with no effect for an owner that is not the manager.
      connection.setProperty(of: request.requestor, property, type: atoms[.null], values: [])
      reply(request, property: property)
    case atoms[.multiple]:
      handleMultiple(request, property: property, ownership: ownership)
    default:
      serve(request, property: property, item: ownership.item, selection: request.selection)
    }
  }

  /// Whether a request into `property` is Mutter's, making the Wayland offer of this copy:
  /// its property (`META_SELECTION`) under Mutter as the window manager.
  private func isMutter(asking property: XAtom) -> Bool {
    property == connection.atom(MutterSelectionBridge.property)
      && MutterSelectionBridge.isMutter(windowManager: session.windowManagerName)
  }

  private func refuse(_ request: X11Event.SelectionRequest) {
    reply(request, property: .none)
  }

  /// Sends the `SelectionNotify` that answers `request`, and drops the errors that earlier
  /// unchecked requests have raised since the last answer (late answers about requestors
  /// that went away), so that an owner answering many of them holds none.
  private func reply(_ request: X11Event.SelectionRequest, property: XAtom) {
    connection.sendSelectionNotify(
      requestor: request.requestor, selection: request.selection, target: request.target,
      property: property, time: request.time)
    connection.flush()
    _ = connection.takeErrors()
  }

  /// Runs `body` with the target table of `selection`'s item, computing it once.
  private func withTargets(
    of selection: XAtom, _ body: @escaping (SelectionOwnerService, TargetTable) -> Void
  ) {
    guard let ownership = ownerships[selection] else { return }
    if let table = ownership.targets {
      body(self, table)
      return
    }
    let item = ownership.item
    let loop = session.loop
    let body = XThreadBound(body)
    Task(executorPreference: ProductionExecutor.shared) {
      let table = await TargetTable.make(for: item)
      loop.submit { session in
        let service = session.owner
        if service.ownerships[selection]?.item === item {
          service.ownerships[selection]?.targets = table
        }
        body.value(service, table)
      }
    }
  }

  /// Serves a data target: produces the payload in a task, then writes it here.
  private func serve(
    _ request: X11Event.SelectionRequest, property: XAtom, item: PasteboardItem, selection: XAtom
  ) {
    guard let name = connection.name(request.target) else {
      refuse(request)
      return
    }
    withTargets(of: selection) { service, table in
      guard let entry = table.entry(named: name) else {
        service.refuse(request)
        return
      }
      service.produce(entry, item: item) { service, payload in
        guard let payload else {
          service.refuse(request)
          return
        }
        service.write(
          payload, type: service.connection.atom(entry.replyType), to: request, property: property)
      }
    }
  }

  /// Produces the bytes of `entry` in a task and hands them back on the X thread; bytes at
  /// hand (a stored representation, in memory or in a file) are handed back at once, without
  /// a task and the two thread hops it costs.
  private func produce(
    _ entry: TargetTable.Entry, item: PasteboardItem,
    _ completion: @escaping (SelectionOwnerService, ChunkSource?) -> Void
  ) {
    if let ready = entry.readyPayload(of: item) {
      completion(self, try? ChunkSource(ready))
      return
    }
    let loop = session.loop
    let completion = XThreadBound(completion)
    Task(executorPreference: ProductionExecutor.shared) {
      switch entry.source {
      case .type, .escapedText:
        let payload = await entry.payload(of: item)
        loop.submit { session in
          completion.value(session.owner, payload.flatMap { try? ChunkSource($0) })
        }
      case .compoundText:
        let text = try? await item.data(for: .utf8PlainText)
        loop.submit { session in
          let converted = text.flatMap { session.connection.compoundText(fromUTF8: $0) }
          completion.value(session.owner, converted.map { ChunkSource.data($0) })
        }
      case .fixed(let bytes):
        loop.submit { session in completion.value(session.owner, .data(bytes)) }
      }
    }
  }

  /// Writes a payload to the requestor: in one request when it fits, else by INCR.
  ///
  /// A payload in one request is answered at once, with no round trip, as xclip, xsel, GTK
  /// and Qt answer: waiting for the server to confirm the write held the X thread for a round
  /// trip per request, and many requestors at once (100 `xclip -o` starting together) were
  /// answered one round trip apart while the server was busy with all of them. What a check
  /// could catch is a requestor gone meanwhile, to which nothing is owed, or an atom or
  /// window it made up, which leaves it without the property it named: a failure either way.
  /// The errors those raise arrive later and are dropped (``reply(_:property:)``).
  private func write(
    _ source: ChunkSource, type: XAtom, to request: X11Event.SelectionRequest, property: XAtom
  ) {
    let chunk = chunkBytes
    if source.count <= chunk {
      source.withBytes(0..<source.count, buffer: chunkBuffer) {
        connection.setProperty(of: request.requestor, property, type: type, bytes: $0)
      }
      source.close()
      if transfers.isEmpty { chunkBuffer.release() }
      reply(request, property: property)
      return
    }
    let checkedFrom = connection.nextRequestSerial
    let key = TransferKey(requestor: request.requestor, property: property)
    // A new request into the same property replaces the transfer there: end it for good (its
    // timer too), so nothing closes its file twice or ends the new transfer on its deadline.
    if let replaced = transfers.removeValue(forKey: key) {
      session.cancelTimer(replaced.timer)
      replaced.source.close()
    }
    // Select deletions on the requestor before announcing, so none is missed (ICCCM §2.7.2).
    connection.selectInput(request.requestor, mask: propertyAndStructureMask)
    connection.setProperty(
      of: request.requestor, property, type: atoms[.incr], values: [UInt(source.count)])
    guard !failed(connection.sync(), since: checkedFrom) else {
      source.close()
      return
    }
    let transfer = Transfer(
      send: IncrementalSend(totalBytes: source.count, chunkBytes: chunk), source: source, type: type
    )
    transfers[key] = transfer
    armTimer(for: key, transfer)
    reply(request, property: property)
  }

  func handlePropertyDeleted(window: XWindow, property: XAtom) {
    let key = TransferKey(requestor: window, property: property)
    guard let transfer = transfers[key] else { return }
    switch transfer.send.propertyDeleted() {
    case .writeChunk(let range):
      transfer.source.withBytes(range, buffer: chunkBuffer) {
        connection.setProperty(of: window, property, type: transfer.type, bytes: $0)
      }
      connection.flush()
      armTimer(for: key, transfer)
    case .writeTerminator:
      let empty = [UInt8]()
      empty.withUnsafeBytes {
        connection.setProperty(of: window, property, type: transfer.type, bytes: $0)
      }
      finish(key)
    case .ignore:
      break
    }
  }

  func handleDestroyed(_ window: XWindow) {
    for key in transfers.keys where key.requestor == window {
      transfers[key]?.send.abandon()
      finish(key)
    }
  }

  private func armTimer(for key: TransferKey, _ transfer: Transfer) {
    session.cancelTimer(transfer.timer)
    transfer.timer = session.schedule(after: stepTimeout) { session in
      // The requestor stopped deleting the property: only its transfer ends.
      session.owner.transfers[key]?.send.abandon()
      session.owner.finish(key)
    }
  }

  private func finish(_ key: TransferKey) {
    guard let transfer = transfers.removeValue(forKey: key) else { return }
    session.cancelTimer(transfer.timer)
    transfer.source.close()
    if transfers.isEmpty { chunkBuffer.release() }
    // Our own window (a read of our own selection) keeps the mask the reader needs.
    if key.requestor != session.window,
      !transfers.keys.contains(where: { $0.requestor == key.requestor })
    {
      connection.selectInput(key.requestor, mask: [])
    }
    connection.flush()
    _ = connection.takeErrors()
  }

  /// Whether any request from serial `start` on failed. Earlier errors are late answers to
  /// unchecked requests (a reply or a chunk to a requestor that has since gone, the event mask
  /// of its destroyed window) and must not fail the requests being checked, even when a new
  /// client's window got the same id.
  func failed(_ errors: [XErrorReport], since start: UInt) -> Bool {
    errors.contains { $0.serial >= start }
  }

  private var propertyAndStructureMask: XWindow.EventMask { [.propertyChange, .structureNotify] }

  /// The number of INCR transfers in flight (for tests and status).
  var transferCount: Int { transfers.count }
}
