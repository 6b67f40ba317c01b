import FerrySystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A link to one host over `ssh`, kept up: a lost link is tried again after 1 s, then twice
/// as long each time up to a minute, and after a minute again once a connection got as far as
/// the other end's hello. A link never blocks the broker: it runs on its own thread and talks
/// to the broker as any client does.
public final class SyncHostLink: Sendable {
  /// The link's standing for `ferry status`.
  public let record: SyncLinkRecord
  /// How the other machine is reached.
  public let command: SSHCommand
  private let engine: SyncEngine
  private let echoStandardError: Bool
  private let current = TrackedMutex<SSHProcess?>(nil)

  /// The first wait before trying again, and the longest.
  public static let backoff: (first: Duration, longest: Duration) = (.seconds(1), .seconds(60))

  /// A link to `command`'s host for `engine`.
  ///
  /// - Parameter echoStandardError: Copy ssh's standard error to this process's (`--verbose`).
  public init(_ command: SSHCommand, engine: SyncEngine, echoStandardError: Bool = false) {
    self.command = command
    self.engine = engine
    self.echoStandardError = echoStandardError
    record = SyncLinkRecord(host: command.host)
  }

  /// One connection: ssh, the handshake, then the link until it ends.
  ///
  /// - Parameters:
  ///   - once: Push the current copy and end (`--once`).
  ///   - check: End after the other end's hello (`--check`).
  /// - Returns: Whether the other end said hello, and why the connection ended (`nil` for a
  ///   clean end), and with `once` how the push went.
  public func connect(once: Bool = false, check: Bool = false) -> (
    reached: Bool, failure: String?, outcome: SyncOutcome?
  ) {
    record.enter("connecting")
    engine.track(record)
    let process: SSHProcess
    do {
      process = try SSHProcess(command, echoStandardError: echoStandardError)
    } catch {
      let failure = "cannot start ssh: \(error)"
      record.enter("reconnecting", error: failure)
      return (false, failure, nil)
    }
    current.withLock { $0 = process }
    record.update { $0.sshPID = process.process.rawValue }
    var failure: SyncLinkError?
    var outcome: SyncOutcome?
    do {
      outcome = try engine.run(
        process.channel, record: record, initiator: true, once: once, check: check)
    } catch {
      failure = error
    }
    let reached = record.status.remote != nil && failure.map(Self.isAfterHello) ?? true
    let ended = process.stop()
    current.withLock { $0 = nil }
    record.update { $0.sshPID = nil }
    let message = describe(
      failure, ended: ended, lastLine: process.lastErrorLine, once: once || check)
    return (reached, message, outcome)
  }

  private static func isAfterHello(_ error: SyncLinkError) -> Bool {
    switch error {
    case .bytesBeforeHello, .remote: return false
    case .protocolViolation, .closed, .io: return true
    }
  }

  /// Keeps the link up until the process ends.
  public func run() -> Never {
    var wait = Self.backoff.first
    while true {
      let attempt = connect()
      if attempt.reached { wait = Self.backoff.first }
      let retry = SyncLinkRecord.now + Double(wait.components.seconds)
      record.enter("reconnecting", error: attempt.failure ?? "the link closed", retryAt: retry)
      engine.linkChanged()
      Self.pause(wait)
      wait = min(wait * 2, Self.backoff.longest)
    }
  }

  /// Stops the current connection's ssh (the link then reconnects, or ends with `once`).
  public func interrupt() {
    current.withLock { $0?.channel.close() }
  }

  private static func pause(_ duration: Duration) {
    var time = timespec(
      tv_sec: Int(duration.components.seconds),
      tv_nsec: Int(duration.components.attoseconds / 1_000_000_000))
    var left = timespec()
    while nanosleep(&time, &left) != 0, errno == EINTR { time = left }
  }

  /// One line for why a connection ended: what the link saw, else ssh's last line and status.
  private func describe(
    _ failure: SyncLinkError?, ended: Termination?, lastLine: String?, once: Bool
  ) -> String? {
    switch failure {
    case .bytesBeforeHello, .remote, .protocolViolation:
      return failure!.description
    default: break
    }
    let status: String
    switch ended {
    case .exited(0) where failure == nil && once: return nil
    case .exited(127):
      return
        "the remote has no \(command.remoteFerry) (exit 127\(lastLine.map { ": \($0)" } ?? "")); --remote-ferry names it"
    case .exited(let code): status = "ssh exited \(code)"
    case .signalled(let signal): status = "ssh ended by signal \(signal)"
    case nil: status = "ssh ended"
    }
    if let lastLine { return "\(lastLine) (\(status))" }
    if let failure { return "\(failure) (\(status))" }
    return "the link closed (\(status))"
  }
}
