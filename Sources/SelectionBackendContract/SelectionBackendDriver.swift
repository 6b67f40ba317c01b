import Foundation
import SelectionBackendCore
import UniformTypeIdentifiers

/// What the contract needs of a display server to check a backend: the backend itself, and
/// the other side — a peer program that owns a selection with given targets, and one that
/// reads what the backend owns. Each backend's test target has one (X11: Xvfb and C peers;
/// Wayland: headless sway, wl-clipboard and a C peer; embedded: its own peer API).
///
/// ```swift
/// @Test(arguments: SelectionBackendPromise.allCases, [SelectionRole.clipboard, .primary])
/// func keeps(_ promise: SelectionBackendPromise, on role: SelectionRole) async throws {
///   try await SelectionBackendContract.check(promise, on: role, with: driver)
/// }
/// ```
public protocol SelectionBackendDriver: Sendable {
  /// The backend under test, kept from check to check.
  var backend: any SelectionBackend { get }

  /// The roles the display server has: `backend.roles` must hold them.
  var expectedRoles: Set<SelectionRole> { get }

  /// The promises this backend does not keep yet, each with the gap in one line: their
  /// checks run as known issues (and fail when the gap is closed, so the entry goes).
  var knownGaps: [SelectionBackendPromise: String] { get }

  /// Whether step timeouts are measured on a clock the driver moves (then the contract also
  /// checks that a timeout is not reached late); real clocks are checked for "not early" only.
  var movesTheClock: Bool { get }

  /// Another backend on the same display server, for checks that close one.
  func makeBackend() async throws -> any SelectionBackend

  /// The target a reader finds a representation of `type` under when the backend serves it
  /// (X11: `UTF8_STRING` for UTF-8 text; Wayland: `text/plain;charset=utf-8`).
  func targetName(for type: UTType) -> String

  /// A peer program takes `role` and offers `targets` in their order; returns once it owns
  /// the selection. A target without data never answers.
  func peerCopies(_ role: SelectionRole, _ targets: [ContractTarget]) async throws

  /// A peer program takes `role` with one target whose transfer it starts and never finishes
  /// (X11: `hostile_owner stop-incr`); returns the target's name once it owns the selection,
  /// or `nil` when the display server has no such peer (the embedded one answers whole).
  func peerStallsMidTransfer(_ role: SelectionRole) async throws -> String?

  /// The targets a peer reader is offered on `role`, in order; `nil` when nobody owns it.
  func peerListsTargets(_ role: SelectionRole) async throws -> [String]?

  /// What a peer reader gets for `target` of `role`; `nil` when it gets nothing.
  func peerPastes(_ role: SelectionRole, _ target: String) async throws -> Data?

  /// Ends every peer this driver started and gives `role` up: nobody owns it afterwards.
  func reset(_ role: SelectionRole) async throws

  /// Runs `operation`, which ends at a step timeout of the backend, and lets the time pass
  /// (a real clock's by waiting; a manual one's by moving it).
  ///
  /// - Returns: What `operation` returned, and how long it took on the backend's clock.
  func waitingOutStepTimeouts<T: Sendable>(_ operation: @escaping @Sendable () async -> T) async
    -> (T, Duration)
}

extension SelectionBackendDriver {
  public var knownGaps: [SelectionBackendPromise: String] { [:] }
  public var movesTheClock: Bool { false }
  public func peerStallsMidTransfer(_ role: SelectionRole) async throws -> String? { nil }

  /// Measures `operation` on the continuous clock: what a driver on a real display server does.
  public func measuringOnTheContinuousClock<T: Sendable>(
    _ operation: @escaping @Sendable () async -> T
  ) async -> (T, Duration) {
    let start = ContinuousClock.now
    let result = await operation()
    return (result, ContinuousClock.now - start)
  }
}

/// One target a contract peer offers: its name and its bytes, or silence.
public struct ContractTarget: Sendable, Hashable {
  /// The display server's name for it (an atom name on X11, a MIME type on Wayland).
  public var name: String
  /// Its bytes; `nil`: the peer never answers it.
  public var data: Data?

  /// A target answered with `data`, or never answered when `data` is `nil`.
  public init(_ name: String, _ data: Data?) {
    self.name = name
    self.data = data
  }

  /// A target of `count` bytes of ``pattern(count:)``.
  public static func pattern(_ name: String, count: Int) -> ContractTarget {
    ContractTarget(name, pattern(count: count))
  }

  /// A target that is never answered.
  public static func silent(_ name: String) -> ContractTarget { ContractTarget(name, nil) }

  /// `count` bytes of the contract's pattern: byte i is `(i * 7 + (i >> 13)) & 0xff`, as the C
  /// peers make it (`NAME#COUNT`).
  public static func pattern(count: Int) -> Data {
    Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 13) })
  }

  /// The target as the C peers take it on their command lines: `NAME!` when silent,
  /// `NAME#COUNT` for the pattern, `NAME=HEX` otherwise.
  public var peerArgument: String {
    guard let data else { return "\(name)!" }
    if data.count > 64, data == Self.pattern(count: data.count) { return "\(name)#\(data.count)" }
    return name + "=" + data.map { String(format: "%02x", $0) }.joined()
  }
}
