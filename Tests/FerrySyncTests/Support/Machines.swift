import FerryProtocol
import FerrySync
import FerryTestSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// One "machine" of a sync test: a broker in memory and its sync engine.
final class SyncMachine: @unchecked Sendable {
  let name: String
  let broker = MemoryBroker()
  let engine: SyncEngine

  deinit { broker.stopWatch() }

  /// A machine called `name`, its engine started.
  init(_ name: String, settings: SyncSettings = SyncSettings()) throws {
    self.name = name
    engine = SyncEngine(local: broker, settings: settings, hostName: name, brokerName: "memory")
    try engine.start()
  }
}

/// A link between two machines: its relay, both ends' records (kept across reconnects, as
/// `ferry sync` keeps them) and how each end's session ended.
final class SyncLink: @unchecked Sendable {
  let from: SyncMachine
  let to: SyncMachine
  let fromRecord: SyncLinkRecord
  let toRecord: SyncLinkRecord
  private(set) var relay: LinkRelay
  private let lock = NSLock()
  private var endings: [Result<SyncOutcome?, SyncLinkError>] = []
  private var connections = 0

  /// Links `from` (which starts the link, as `ferry sync` does) to `to`.
  init(_ from: SyncMachine, _ to: SyncMachine, delay: Duration = .zero) throws {
    self.from = from
    self.to = to
    fromRecord = SyncLinkRecord(host: to.name)
    toRecord = SyncLinkRecord(host: "stdio")
    relay = try LinkRelay(delay: delay)
    start()
  }

  /// Drops the link and connects again through a new relay, keeping the records.
  func reconnect(delay: Duration = .zero) async throws {
    relay.cut()
    let started = connections * 2
    guard await Deadline.wait(for: .seconds(10), { ended.count >= started }) else {
      throw SessionsDidNotEnd()
    }
    relay = try LinkRelay(delay: delay)
    start()
  }

  /// How many of the link's sessions ended so far, and how.
  var ended: [Result<SyncOutcome?, SyncLinkError>] { lock.withLock { endings } }

  /// Ends the link.
  func cut() { relay.cut() }

  private func start() {
    let relay = relay
    connections += 1
    for (machine, channel, record, initiator) in [
      (from, relay.left, fromRecord, true), (to, relay.right, toRecord, false),
    ] {
      DetachedThread.start(name: "sync-session") { [self] in
        let result: Result<SyncOutcome?, SyncLinkError>
        do throws(SyncLinkError) {
          result = .success(try machine.engine.run(channel, record: record, initiator: initiator))
        } catch {
          result = .failure(error)
        }
        // The session is over and its channel closed: its end of the socket pair is no one's.
        close(channel.input.rawValue)
        lock.withLock { endings.append(result) }
      }
    }
  }

  /// Waits until both ends' records say `state` (`connected`, `diverged`).
  func waitUntil(_ state: String, within limit: Duration = .seconds(10)) async -> Bool {
    await Deadline.wait(for: limit) {
      fromRecord.status.state == state && toRecord.status.state == state
    }
  }
}

/// A cut link whose sessions went on.
struct SessionsDidNotEnd: Error {}
