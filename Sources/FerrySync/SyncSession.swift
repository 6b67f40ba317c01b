import Dispatch
import FerryProtocol
import FerrySystem

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One connection of a link, the same at both ends: the handshake, then offers both ways
/// (docs/SYNC.md, "The link"). Its reader runs on the thread that calls ``run()``; what it
/// sends goes out on a serial queue of its own, so a large item being sent never holds up
/// what comes in, and a newer copy stops it between chunks.
final class SyncSession: @unchecked Sendable {
  /// The link's frames.
  let channel: FramedChannel
  /// The link's standing, kept across reconnects.
  let record: SyncLinkRecord
  /// Whether this end started the link (its ``SyncLinkRecord/lastSynced`` counts).
  let initiator: Bool
  private unowned let engine: SyncEngine
  /// Suspended until the handshake is done: an offer made before it waits for the other end's
  /// node (split horizon) and the reconnect rule.
  private let sendQueue = DispatchQueue(label: "ferry.sync.send")
  private let sending = TrackedMutex(false)
  private let state = TrackedMutex(Outbound())
  /// The other end's hello, once it came (set by the reader before anything is sent).
  private(set) var peer: SyncMessage.Hello?

  /// The bytes of one data frame.
  static let chunkSize = 256 << 10
  /// How long the other end's hello may take, ssh's connection included: BatchMode makes ssh
  /// fail at once rather than ask, so only a remote that runs but never speaks takes this long.
  static let helloTimeout: Duration = .seconds(60)

  private struct Outbound {
    var nextID = 1
    /// Raised by every newer copy: a transfer started under an older one stops.
    var generation = 0
    /// The offer waiting for its pull.
    var pending: (id: Int, item: SyncItem, generation: Int)?
    /// Origins carried either way.
    var seen = RecentOrigins()
    /// The digest of the copy that last crossed.
    var lastDigest: [UInt8]?
    /// The other end's current item, as far as this end knows.
    var peerCurrent: ItemOrigin?
    /// Offers sent, by id, until their answer: what `ack` refers to.
    var sent: [Int: (origin: ItemOrigin, bytes: Int)] = [:]
    /// The changes the reconnect rule covers (``SyncEngine/currentForRule``, read as the hello
    /// goes out); the watch offers only those after them.
    var ruleCovered = Int.max
  }

  /// Whether the watch offers the `changeNoted`th change here: it came after the hello, whose
  /// reconnect rule decides on the ones before it.
  func follows(changeNoted: Int) -> Bool {
    state.withLock { changeNoted > $0.ruleCovered }
  }

  /// An item coming in.
  private struct Inbound {
    var offer: SyncMessage.Offer
    var representations: [SyncItem.Representation] = []
    var bytes = Data()
    /// Read and dropped: a pasteboard this end does not take.
    var discard: Bool
  }

  /// What a connection is for.
  enum Mode: Sendable, Hashable {
    /// Stay and keep both sides one pasteboard.
    case continuous
    /// Push the current copy, wait for its answer, and end (`ferry sync --once`).
    case once
    /// Say hello and end (`ferry sync --check`).
    case check
  }

  private let mode: Mode
  /// With `once`: the offer whose answer ends the connection, and how it went.
  private let onceState = TrackedMutex<(id: Int?, outcome: SyncOutcome?)>((nil, nil))

  init(
    channel: FramedChannel, record: SyncLinkRecord, initiator: Bool, engine: SyncEngine,
    mode: Mode = .continuous
  ) {
    self.channel = channel
    self.record = record
    self.initiator = initiator
    self.engine = engine
    self.mode = mode
    sendQueue.suspend()
  }

  /// Lets what waits to be sent go, once (after the handshake, or at the end).
  private func startSending() {
    let start = sending.withLock { started -> Bool in
      defer { started = true }
      return !started
    }
    if start { sendQueue.resume() }
  }

  /// How a `once` connection's push went.
  var onceOutcome: SyncOutcome? { onceState.withLock { $0.outcome } }

  // MARK: The connection

  /// Says hello, reads the other end's, applies the reconnect rule, then takes messages until
  /// the link ends.
  ///
  /// - Throws: ``SyncLinkError`` for why the link ended; returns at a clean end of stream.
  func run() throws(SyncLinkError) {
    // The rule below decides on the item the hello names, and on every change up to it.
    let (ours, covered) = engine.currentForRule
    state.withLock { $0.ruleCovered = covered }
    try channel.send(
      .hello(engine.hello(current: ours, lastSynced: initiator ? record.lastSynced : nil)))
    guard let hello = try channel.receiveHello(until: .now + Self.helloTimeout) else {
      throw .closed("the link closed before the other end said hello")
    }
    guard hello.version == SyncMessage.version else {
      throw .protocolViolation(
        "the other end speaks sync version \(hello.version), this one \(SyncMessage.version)")
    }
    guard hello.node != engine.node else {
      throw .protocolViolation("the other end is this same broker (a link to itself)")
    }
    peer = hello
    if !initiator { record.update { $0.host = hello.host } }
    state.withLock { $0.peerCurrent = hello.current }
    engine.observe(clock: hello.current?.clock)
    record.update {
      $0.remote = "\(hello.software) on \(hello.host), \(hello.broker)"
      $0.error = nil
    }
    startSending()
    switch mode {
    case .continuous: break
    case .check:
      record.enter("connected")
      return
    case .once:
      record.enter("connected")
      let outcome = engine.offerNow(to: self)
      onceState.withLock { $0 = (outcome.offerID, outcome) }
      guard outcome.offerID != nil else { return }
      var inbound: Inbound?
      while onceState.withLock({ $0.id != nil }), let frame = try channel.receive() {
        try handle(frame, inbound: &inbound)
      }
      return
    }
    let lastSynced = initiator ? record.lastSynced : hello.lastSynced
    let rule = ReconnectRule(ours: ours, theirs: hello.current, lastSynced: lastSynced)
    switch rule {
    case .inSync:
      if ours == hello.current, let ours { record.lastSynced = ours }
      record.enter("connected")
    case .takeTheirs:
      record.enter("connected")
    case .offerOurs:
      record.enter("connected")
      engine.offerCurrent(to: self)
    case .diverged:
      record.enter("diverged")
    }
    engine.linkChanged()
    var inbound: Inbound?
    while let frame = try channel.receive() {
      try handle(frame, inbound: &inbound)
    }
    if inbound != nil { throw .closed("the link ended in the middle of an item") }
  }

  /// Ends the connection: the reader sees the end of its stream.
  func close() {
    channel.close()
    startSending()  // what waits finds the channel closed; a suspended queue must not be freed
  }

  // MARK: Receiving

  private func handle(_ frame: Frame, inbound: inout Inbound?) throws(SyncLinkError) {
    switch frame.kind {
    case .data:
      guard var item = inbound else { throw .protocolViolation("DATA outside an item") }
      let index = item.representations.count
      guard index < item.offer.types.count,
        item.bytes.count + frame.body.count <= item.offer.sizes[index]
      else { throw .protocolViolation("more bytes than the offer announced") }
      if !item.discard { item.bytes.append(contentsOf: frame.body) }
      inbound = item
    case .end:
      guard var item = inbound else { throw .protocolViolation("END outside an item") }
      let index = item.representations.count
      guard index < item.offer.types.count,
        item.discard || item.bytes.count == item.offer.sizes[index]
      else { throw .protocolViolation("a representation shorter than the offer announced") }
      item.representations.append(
        SyncItem.Representation(type: item.offer.types[index], bytes: item.bytes))
      item.bytes = Data()
      if item.representations.count == item.offer.types.count {
        inbound = nil
        if !item.discard { received(item.offer, item.representations) }
      } else {
        inbound = item
      }
    case .event:
      let message = try SyncMessage(frame: frame)
      if let item = inbound {
        guard case .abort(let id) = message, id == item.offer.id else {
          throw .protocolViolation("a message in the middle of an item's bytes")
        }
        inbound = nil
        return
      }
      try handle(message, inbound: &inbound)
    case .error:
      let body = try? frame.decodeJSON(ErrorBody.self)
      throw .remote(body?.message ?? "the other end failed")
    case .request, .response:
      throw .protocolViolation("a \(frame.kind) frame on a sync link")
    }
  }

  private func handle(_ message: SyncMessage, inbound: inout Inbound?) throws(SyncLinkError) {
    switch message {
    case .hello:
      throw .protocolViolation("a second hello")
    case .offer(let offer):
      state.withLock { $0.seen.insert(offer.origin) }
      let wanted = engine.takes(offer)
      if offer.eager {
        inbound = Inbound(offer: offer, discard: !wanted)
        if offer.types.count == 0 { inbound = nil }
      } else if wanted {
        try channel.send(.pull(id: offer.id))
        pulls.withLock { $0 = offer }
      } else if (offer.totalBytes ?? .max) > engine.settings.maximumBytes {
        record.skipped(.tooLarge)
        try channel.send(.decline(id: offer.id, reason: SyncFilter.Reason.tooLarge.rawValue))
        engine.linkChanged()
      } else {
        try channel.send(.decline(id: offer.id, reason: "not taken"))
      }
    case .stream(let id):
      guard let offer = pulls.withLock({ $0 }), offer.id == id else {
        throw .protocolViolation("bytes of an item that was not pulled")
      }
      inbound = Inbound(offer: offer, discard: false)
    case .pull(let id):
      sendQueue.async { [self] in stream(id) }
    case .decline(let id, let reason):
      state.withLock { _ = $0.sent.removeValue(forKey: id) }
      onceState.withLock { once in
        if once.id == id { once = (nil, .declined(reason)) }
      }
      if let reason = SyncFilter.Reason(rawValue: reason) {
        record.skipped(reason)
        engine.linkChanged()
      }
    case .abort(let id):
      pulls.withLock { if $0?.id == id { $0 = nil } }
    case .ack(let id, let applied):
      onceState.withLock { once in
        if once.id == id { once = (nil, applied ? .applied : .keptInHistory) }
      }
      guard let sent = state.withLock({ $0.sent.removeValue(forKey: id) }) else { return }
      if applied {
        state.withLock { $0.peerCurrent = sent.origin }
        if initiator { record.lastSynced = sent.origin }
        if record.status.state == "diverged" { record.enter("connected") }
      }
      engine.linkChanged()
    }
  }

  /// The pulled offer whose bytes are awaited; only the newest.
  private let pulls = TrackedMutex<SyncMessage.Offer?>(nil)

  private func received(_ offer: SyncMessage.Offer, _ representations: [SyncItem.Representation]) {
    let item = SyncItem(
      pasteboard: offer.pasteboard, origin: offer.origin, representations: representations,
      expiresIn: offer.expiresIn)
    state.withLock { $0.lastDigest = item.digest }
    engine.apply(item, offerID: offer.id, from: self)
  }

  /// Answers an offer once the broker took it or kept it in its history.
  func acknowledge(_ id: Int, origin: ItemOrigin, applied: Bool, bytes: Int) {
    if applied {
      state.withLock { $0.peerCurrent = origin }
      if initiator { record.lastSynced = origin }
      if record.status.state == "diverged" { record.enter("connected") }
    }
    record.update {
      $0.lastReceived = SyncLinkStatus.Crossing(
        change: origin.change, at: SyncLinkRecord.now, bytes: bytes)
    }
    engine.linkChanged()
    sendQueue.async { [self] in try? channel.send(.ack(id: id, applied: applied)) }
  }

  // MARK: Sending

  /// Offers `item`, a local copy or one another link brought, unless it came from this link's
  /// other end, crossed it already, or has the bytes of the copy that last crossed. A newer
  /// call stops the transfer of an older one.
  func offer(_ item: SyncItem) {
    let generation = state.withLock { state -> Int in
      state.generation += 1
      return state.generation
    }
    sendQueue.async { [self] in send(item, generation: generation) }
  }

  /// Whether `item` is worth sending over this link: split horizon, the seen-set, the digest.
  private func admits(_ item: SyncItem) -> Bool {
    guard let peer else { return false }
    if item.origin.node == peer.node || item.origin.via == peer.node { return false }
    return state.withLock { state in
      !state.seen.contains(item.origin) && state.peerCurrent != item.origin
    }
  }

  private func send(_ item: SyncItem, generation: Int) {
    guard state.withLock({ $0.generation == generation }), admits(item) else { return }
    _ = sendNow(item, generation: generation)
  }

  /// Sends `item` now, on the calling thread.
  ///
  /// - Returns: The offer's id, or `nil` when it was a duplicate or the link failed.
  func sendNow(_ item: SyncItem, generation: Int? = nil) -> Int? {
    let generation = generation ?? state.withLock { $0.generation }
    let digest = item.digest
    if state.withLock({ $0.lastDigest == digest }) {
      record.skipped(.duplicate)
      engine.linkChanged()
      return nil
    }
    var origin = item.origin
    origin.via = engine.node
    let eager = item.totalBytes <= engine.settings.eagerBytes
    let id = state.withLock { state -> Int in
      let id = state.nextID
      state.nextID += 1
      state.seen.insert(item.origin)
      state.lastDigest = digest
      state.sent[id] = (item.origin, item.totalBytes)
      if !eager { state.pending = (id, item, generation) }
      return id
    }
    let offer = SyncMessage.Offer(
      id: id, pasteboard: item.pasteboard, origin: origin,
      types: item.representations.map(\.type), sizes: item.representations.map(\.bytes.count),
      expiresIn: item.expiresIn, eager: eager)
    do {
      try channel.send(.offer(offer))
      if eager { try sendBytes(of: item, id: id, generation: nil) }
    } catch {
      return nil  // the reader sees the link end
    }
    record.update {
      $0.lastSent = SyncLinkStatus.Crossing(
        change: item.origin.change, at: SyncLinkRecord.now, bytes: item.totalBytes)
    }
    engine.linkChanged()
    return id
  }

  /// Streams a pulled offer, unless a newer copy came since.
  private func stream(_ id: Int) {
    let pending = state.withLock { state -> (item: SyncItem, generation: Int)? in
      guard let pending = state.pending, pending.id == id else { return nil }
      state.pending = nil
      return state.generation == pending.generation ? (pending.item, pending.generation) : nil
    }
    do {
      guard let pending else {
        try channel.send(.abort(id: id))
        return
      }
      try channel.send(.stream(id: id))
      try sendBytes(of: pending.item, id: id, generation: pending.generation)
    } catch {
      return
    }
  }

  /// Sends every representation's bytes; with a `generation`, gives the transfer up with an
  /// `abort` as soon as a newer copy raised it.
  private func sendBytes(of item: SyncItem, id: Int, generation: Int?) throws(SyncLinkError) {
    for representation in item.representations {
      var offset = 0
      let bytes = representation.bytes
      while offset < bytes.count {
        if let generation, state.withLock({ $0.generation != generation }) {
          state.withLock { _ = $0.sent.removeValue(forKey: id) }
          try channel.send(.abort(id: id))
          return
        }
        let end = min(offset + Self.chunkSize, bytes.count)
        let chunk = bytes[(bytes.startIndex + offset)..<(bytes.startIndex + end)]
        try channel.send([Frame(kind: .data, body: Array(chunk))])
        offset = end
      }
      try channel.send([Frame(kind: .end)])
    }
  }
}
