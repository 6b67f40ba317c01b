import FerryProtocol
import Pasteboard

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// What the daemon reports about itself in answer to `status`; the socket server adds each
/// pasteboard's change count and types.
///
/// ```swift
/// struct DaemonStatus: BrokerStatusProvider {
///   func status() async -> BrokerStatus {
///     BrokerStatus(display: ":0", x11Bridged: true, clipboardManager: true)
///   }
/// }
/// ```
public struct BrokerStatus: Sendable, Hashable {
  /// The software version.
  public var version: String
  /// The broker's process id.
  public var pid: Int32
  /// How long the broker has run.
  public var uptime: Duration
  /// The X display bridged, or `nil` when headless.
  public var display: String?
  /// Whether pasteboards are published as X11 selections.
  public var x11Bridged: Bool
  /// The Wayland display bridged (through data-control), or `nil`.
  public var wayland: String?
  /// Whether the broker holds the X11 clipboard-manager role.
  public var clipboardManager: Bool
  /// The pasteboards to report, in order. Pasteboards used through the socket are added
  /// after these.
  public var pasteboards: [Pasteboard.Name]
  /// Why the broker keeps no clipboard history (`history.enabled is false`, the
  /// error opening it); `nil` when it keeps one or does not say.
  public var historyProblem: String?
  /// Every display server the broker opened or was asked to, in the table's order; empty
  /// from a provider that does not say (``display``, ``x11Bridged`` and ``wayland`` then
  /// speak for it).
  public var displays: [DisplayStatus]

  /// Creates a status.
  public init(
    version: String = BrokerStatus.softwareVersion, pid: Int32 = getpid(), uptime: Duration = .zero,
    display: String? = nil, x11Bridged: Bool = false, wayland: String? = nil,
    clipboardManager: Bool = false,
    pasteboards: [Pasteboard.Name] = [.general, .primary], historyProblem: String? = nil,
    displays: [DisplayStatus] = []
  ) {
    self.version = version
    self.pid = pid
    self.uptime = uptime
    self.display = display
    self.x11Bridged = x11Bridged
    self.wayland = wayland
    self.clipboardManager = clipboardManager
    self.pasteboards = pasteboards
    self.historyProblem = historyProblem
    self.displays = displays
  }

  /// A status whose displays are `displays`; the fields of the wire format before the list
  /// (``display``, ``x11Bridged``, ``wayland``) are derived from it.
  public init(
    uptime: Duration, displays: [DisplayStatus], clipboardManager: Bool,
    historyProblem: String? = nil
  ) {
    let legacy = StatusResponse.legacyFields(of: displays)
    self.init(
      uptime: uptime, display: legacy.display, x11Bridged: legacy.x11Bridged,
      wayland: legacy.wayland, clipboardManager: clipboardManager, historyProblem: historyProblem,
      displays: displays)
  }

  /// The version reported when the daemon gives none.
  public static let softwareVersion = "0.1.0-dev"
}

/// Something that knows the broker's state: the daemon implements it; the socket server asks
/// it on every `status` request.
public protocol BrokerStatusProvider: Sendable {
  /// The current status.
  func status() async -> BrokerStatus
}

/// A headless broker's status: no display, no X11 bridge, its uptime counted from creation.
public struct DefaultBrokerStatusProvider: BrokerStatusProvider {
  private let started = ContinuousClock.now

  /// Creates a provider whose uptime starts now.
  public init() {}

  public func status() async -> BrokerStatus {
    BrokerStatus(uptime: ContinuousClock.now - started)
  }
}
