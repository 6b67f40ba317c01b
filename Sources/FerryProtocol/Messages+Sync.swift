/// What one link of `ferry sync` reports: never a payload, only copies' change counts, types'
/// counts and reasons (docs/SYNC.md, "Status").
///
/// `{"host":"desk","state":"connected","since":1767225600,"sent":{"change":815,"at":…},
/// "skipped":{"concealed":2,"tooLarge":1},"error":"Host key verification failed."}`
public struct SyncLinkStatus: Codable, Sendable, Hashable {
  /// One copy that crossed the link: its change count on the machine it was made on, and when
  /// (seconds since 1970, for display only).
  public struct Crossing: Codable, Sendable, Hashable {
    /// The copy's change count where it was made.
    public var change: Int
    /// When it crossed.
    public var at: Double
    /// Its representations' bytes in all.
    public var bytes: Int

    public init(change: Int, at: Double, bytes: Int) {
      self.change = change
      self.at = at
      self.bytes = bytes
    }
  }

  /// The host as the user named it (`desk`, `build-vm`).
  public var host: String
  /// `connecting`, `connected`, `diverged` (connected, both sides changed while apart) or
  /// `reconnecting`.
  public var state: String
  /// Since when the link is in its state, in seconds since 1970.
  public var since: Double
  /// What answers at the other end: `ferry 1.4 on build-vm, display-0`.
  public var remote: String?
  /// The `ssh` process's id while it runs.
  public var sshPID: Int32?
  /// The last copy sent.
  public var lastSent: Crossing?
  /// The last copy received.
  public var lastReceived: Crossing?
  /// Copies not sent, by reason: `concealed`, `transient`, `currentHostOnly`, `excluded`,
  /// `files`, `tooLarge`, `duplicate`, `unknownType`.
  public var skipped: [String: Int]
  /// The last failure in one line (`ssh`'s last line: "Host key verification failed.").
  public var error: String?
  /// When the next attempt is made, in seconds since 1970, while reconnecting.
  public var retryAt: Double?

  public init(
    host: String, state: String, since: Double, remote: String? = nil, sshPID: Int32? = nil,
    lastSent: Crossing? = nil, lastReceived: Crossing? = nil, skipped: [String: Int] = [:],
    error: String? = nil, retryAt: Double? = nil
  ) {
    self.host = host
    self.state = state
    self.since = since
    self.remote = remote
    self.sshPID = sshPID
    self.lastSent = lastSent
    self.lastReceived = lastReceived
    self.skipped = skipped
    self.error = error
    self.retryAt = retryAt
  }
}

/// `ferry sync` telling the broker how its links are, and the highest clock it saw on them,
/// so that the broker's next local copy is stamped above it. The broker keeps the newest
/// report of each process for `status` while that process lives.
///
/// `{"op":"syncReport","process":4242,"links":[…],"clock":40}`
public struct SyncReportRequest: BrokerRequest, Hashable {
  public var op = BrokerOperation.syncReport
  /// The reporting process.
  public var process: Int32
  /// Its links.
  public var links: [SyncLinkStatus]
  /// The highest clock seen on the links.
  public var clock: Int?

  public init(process: Int32, links: [SyncLinkStatus], clock: Int? = nil) {
    self.process = process
    self.links = links
    self.clock = clock
  }
}

/// The answer to `syncReport`: who the broker is and its clock now.
///
/// `{"node":"6f1c…","clock":41}`
public struct SyncReportResponse: Codable, Sendable, Hashable {
  /// The broker's node: the origin of its local copies.
  public var node: String
  /// Its Lamport clock.
  public var clock: Int

  public init(node: String, clock: Int) {
    self.node = node
    self.clock = clock
  }
}
