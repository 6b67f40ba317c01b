import Dispatch
import FerryProtocol
import FerrySystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One machine's side of `ferry sync`: follows the broker's pasteboards and offers each new
/// copy to every link, and writes what the links bring (docs/SYNC.md).
///
/// Changes come from the broker's watch events, never from polling. Reading a copy, writing
/// one and reporting to the broker each run on a serial queue of their own; the links'
/// sessions send on theirs.
///
/// ```swift
/// let engine = try SyncEngine(local: BrokerPasteboards(socket: .resolve()), settings: .init())
/// try engine.start()
/// let session = engine.attach(channel, record: SyncLinkRecord(host: "desk"), initiator: true)
/// ```
public final class SyncEngine: @unchecked Sendable {
  /// The machine's broker.
  public let local: any LocalPasteboards
  /// What is sent and taken.
  public let settings: SyncSettings
  /// This machine's name, in the hello.
  public let hostName: String
  /// The broker's name, in the hello: `display-0`, `headless`.
  public let brokerName: String
  /// The software's name and version, in the hello: `ferry 0.1.0`.
  public let software: String
  /// The broker's node, learned at ``start(onEnd:)``.
  public private(set) var node = ""

  private let reading = DispatchQueue(label: "ferry.sync.read")
  private let applying = DispatchQueue(label: "ferry.sync.apply")
  private let reporting = DispatchQueue(label: "ferry.sync.report")
  private let state = TrackedMutex(Shared())

  private struct Shared {
    var sessions: [ObjectIdentifier: SyncSession] = [:]
    var records: [SyncLinkRecord] = []
    var current: [String: PasteboardState] = [:]
    var clock = 0
    var reportDue = false
    /// Counts the changes noted: a session's reconnect rule covers those up to the count it
    /// read with the current item.
    var noted = 0
  }

  /// An engine over `local`; nothing runs until ``start(onEnd:)``.
  public init(
    local: any LocalPasteboards, settings: SyncSettings, hostName: String = SyncEngine.hostName,
    brokerName: String = "broker", software: String = "ferry"
  ) {
    self.software = software
    self.local = local
    self.settings = settings
    self.hostName = hostName
    self.brokerName = brokerName
  }

  /// Learns the broker's node and starts following its pasteboards.
  ///
  /// - Parameter onEnd: Called once if the watch ends (the broker went away), with why.
  /// - Throws: When the broker does not answer.
  public func start(onEnd: @escaping @Sendable (String) -> Void = { _ in }) throws {
    let answer = try local.report(links: [], clock: nil)
    node = answer.node
    state.withLock { $0.clock = answer.clock }
    let started = DispatchSemaphore(value: 0)
    let firstState = TrackedMutex(false)
    DetachedThread.start(name: "ferry-sync-watch") { [self] in
      do {
        try local.watch(settings.pasteboards) { [self] change in
          let first = firstState.withLock { seen in
            defer { seen = true }
            return !seen
          }
          noted(change, initial: first)
          if first { started.signal() }
          return true
        }
        onEnd("the broker's watch ended")
      } catch {
        onEnd("the broker stopped answering: \(error)")
      }
      started.signal()
    }
    _ = started.wait(timeout: .now() + .seconds(15))
  }

  /// The machine's host name.
  public static var hostName: String {
    var name = [CChar](repeating: 0, count: 256)
    guard gethostname(&name, name.count - 1) == 0 else { return "localhost" }
    return String(
      decoding: name.prefix(while: { $0 != 0 }).map(UInt8.init(bitPattern:)), as: UTF8.self)
  }

  // MARK: Links

  /// Runs a session over `channel` on the calling thread until the link ends.
  ///
  /// - Throws: ``SyncLinkError`` for why it ended.
  /// - Parameter once: Push the current copy, wait for the answer and end (`--once`);
  ///   `check`: end after the hello (`--check`).
  /// - Returns: With `once`, how the push went.
  @discardableResult
  public func run(
    _ channel: FramedChannel, record: SyncLinkRecord, initiator: Bool, once: Bool = false,
    check: Bool = false
  ) throws(SyncLinkError) -> SyncOutcome? {
    let session = SyncSession(
      channel: channel, record: record, initiator: initiator, engine: self,
      mode: check ? .check : once ? .once : .continuous)
    let key = ObjectIdentifier(session)
    state.withLock { state in
      state.sessions[key] = session
      if !state.records.contains(where: { $0 === record }) { state.records.append(record) }
    }
    defer {
      state.withLock { _ = $0.sessions.removeValue(forKey: key) }
      session.close()
    }
    try session.run()
    return session.onceOutcome
  }

  /// Adds a link's record to what is reported before its first session.
  public func track(_ record: SyncLinkRecord) {
    state.withLock { state in
      if !state.records.contains(where: { $0 === record }) { state.records.append(record) }
    }
    linkChanged()
  }

  /// Takes a link's record out of what is reported.
  public func forget(_ record: SyncLinkRecord) {
    state.withLock { $0.records.removeAll { $0 === record } }
    linkChanged()
  }

  /// The hello this end sends.
  func hello(current: ItemOrigin?, lastSynced: ItemOrigin?) -> SyncMessage.Hello {
    SyncMessage.Hello(
      node: node, host: hostName, software: software, broker: brokerName,
      current: current, lastSynced: lastSynced)
  }

  /// The origin of the general pasteboard's item now, and how many changes were noted up to
  /// it: what a reconnect rule decides on. A change noted up to then is the rule's to offer
  /// (or not, when both sides changed), never the watch's.
  var currentForRule: (origin: ItemOrigin?, noted: Int) {
    state.withLock { ($0.current[WireProtocol.defaultPasteboard]?.origin, $0.noted) }
  }

  /// Notes a clock seen on a link; the broker stamps its next copy above it.
  func observe(clock: Int?) {
    guard let clock else { return }
    let raised = state.withLock { state -> Bool in
      guard clock > state.clock else { return false }
      state.clock = clock
      return true
    }
    if raised { linkChanged() }
  }

  /// Whether this end takes `offer`: a pasteboard it synchronizes, within its limit, and not
  /// sending only.
  func takes(_ offer: SyncMessage.Offer) -> Bool {
    settings.direction != .sendOnly && settings.pasteboards.contains(offer.pasteboard)
      && (offer.totalBytes ?? .max) <= settings.maximumBytes
  }

  // MARK: Local copies

  private func noted(_ change: PasteboardState, initial: Bool) {
    let sequence = state.withLock { state -> Int? in
      if let known = state.current[change.pasteboard], known.changeCount >= change.changeCount {
        return nil
      }
      state.current[change.pasteboard] = change
      state.noted += 1
      return state.noted
    }
    guard let sequence, !initial else { return }
    reading.async { [self] in offer(change, to: nil, sequence: sequence) }
  }

  /// Offers the general pasteboard's item to `session` alone (the reconnect rule said so).
  func offerCurrent(to session: SyncSession) {
    guard let change = state.withLock({ $0.current[WireProtocol.defaultPasteboard] }) else {
      return
    }
    reading.async { [self] in offer(change, to: session, sequence: nil) }
  }

  /// Pushes the general pasteboard's item to `session` now, on the calling thread
  /// (`--once`), whatever the reconnect rule says.
  func offerNow(to session: SyncSession) -> SyncOutcome {
    guard let change = state.withLock({ $0.current[WireProtocol.defaultPasteboard] }),
      change.origin != nil
    else { return .empty }
    switch prepare(change, for: [session]) {
    case .nothing(let outcome): return outcome
    case .item(let item):
      return session.sendNow(item).map { .sent($0) } ?? .skipped(.duplicate)
    }
  }

  /// Reads the item `change` describes and offers it to `target`, or to every session whose
  /// reconnect rule came before the change (the `sequence`th noted).
  private func offer(_ change: PasteboardState, to target: SyncSession?, sequence: Int?) {
    guard settings.direction != .receiveOnly, change.origin != nil else { return }
    // A newer change is on its way: that one is offered instead.
    guard state.withLock({ $0.current[change.pasteboard]?.changeCount == change.changeCount })
    else { return }
    let sessions =
      target.map { [$0] }
      ?? state.withLock { Array($0.sessions.values) }.filter { session in
        sequence.map { session.follows(changeNoted: $0) } ?? true
      }
    guard !sessions.isEmpty else { return }
    if case .item(let item) = prepare(change, for: sessions) {
      for session in sessions { session.offer(item) }
    }
  }

  /// The item `change` describes, read with what may be sent of it, or why nothing is (counted
  /// on `sessions`).
  private func prepare(_ change: PasteboardState, for sessions: [SyncSession])
    -> Prepared
  {
    let types: [String]
    switch SyncFilter.sendableTypes(of: change, settings: settings) {
    case .skip(let reason):
      if reason != .duplicate { skipped(reason, on: sessions) }
      return .nothing(reason == .duplicate ? .empty : .skipped(reason))
    case .send(let sendable): types = sendable
    }
    let read: LocalRead
    do {
      read = try local.read(types, of: change, limit: settings.maximumBytes)
    } catch {
      return .nothing(.empty)  // the broker went away: the watch's end says so
    }
    switch read {
    case .changed: return .nothing(.empty)
    case .tooLarge:
      skipped(.tooLarge, on: sessions)
      return .nothing(.skipped(.tooLarge))
    case .item(let representations):
      guard !representations.isEmpty, let origin = change.origin else { return .nothing(.empty) }
      return .item(
        SyncItem(pasteboard: change.pasteboard, origin: origin, representations: representations))
    }
  }

  /// A copy read to be sent, or why there is none.
  private enum Prepared {
    case item(SyncItem)
    case nothing(SyncOutcome)
  }

  private func skipped(_ reason: SyncFilter.Reason, on sessions: [SyncSession]) {
    for session in sessions { session.record.skipped(reason) }
    linkChanged()
  }

  // MARK: Copies from links

  /// Writes `item`, which `session` brought, and answers the offer.
  func apply(_ item: SyncItem, offerID: Int, from session: SyncSession) {
    observe(clock: item.origin.clock)
    applying.async { [self] in
      var arrived = item
      arrived.origin.via = session.peer?.node
      let applied: Bool
      do {
        applied = try local.write(arrived, from: session.record.host)
      } catch {
        session.record.skipped(.unknownType)
        session.record.update { $0.error = "the broker refused a copy: \(error)" }
        linkChanged()
        return
      }
      session.acknowledge(
        offerID, origin: item.origin, applied: applied, bytes: item.totalBytes)
    }
  }

  // MARK: Reports

  /// Schedules a report of the links to the broker (coalesced: one report after a burst).
  func linkChanged() {
    let schedule = state.withLock { state -> Bool in
      defer { state.reportDue = true }
      return !state.reportDue
    }
    guard schedule else { return }
    reporting.async { [self] in report() }
  }

  /// The links' standing now.
  public var links: [SyncLinkStatus] {
    state.withLock { $0.records }.map(\.status)
  }

  private func report() {
    let (records, clock) = state.withLock { state in
      state.reportDue = false
      return (state.records, state.clock)
    }
    _ = try? local.report(links: records.map(\.status), clock: clock)
  }
}
