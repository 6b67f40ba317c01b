/// One display server the broker opened or was asked to, in `status`: its kind, its name,
/// what it speaks, and whether it is bridged now (and why not).
///
/// `{"kind":"Wayland","name":"wayland-1","protocol":"data-control","bridged":true}`
public struct DisplayStatus: Codable, Sendable, Hashable {
  /// The kind of display server, as its backend names it: `X11`, `Wayland`.
  public var kind: String
  /// The display: `:0`, `wayland-1`.
  public var name: String
  /// What the broker speaks to it: `ICCCM selections`, `data-control`.
  public var `protocol`: String
  /// Whether the broker bridges it now.
  public var bridged: Bool
  /// Why it is not bridged (it could not be opened, it went away and the broker is
  /// connecting again); `nil` while it is.
  public var problem: String?
  /// How many times the broker connected to it again after it went away; `nil` for never.
  public var reconnections: Int?
  /// Why it last went away, once it has (it may be back: see ``bridged``).
  public var lastLoss: String?
  /// The desktop it belongs to, when the broker can tell: `GNOME (Mutter) through Xwayland`,
  /// `KDE (KWin) through Xwayland`.
  public var desktop: String?

  /// Creates a display's status.
  public init(
    kind: String, name: String, protocol: String, bridged: Bool, problem: String? = nil,
    reconnections: Int? = nil, lastLoss: String? = nil, desktop: String? = nil
  ) {
    self.desktop = desktop
    self.kind = kind
    self.name = name
    self.protocol = `protocol`
    self.bridged = bridged
    self.problem = problem
    self.reconnections = reconnections
    self.lastLoss = lastLoss
  }
}

extension StatusResponse {
  /// The fields a broker before the list of displays sent (`display`, `x11Bridged`,
  /// `wayland`), from the list: kept on the wire for one release for clients that read them
  /// (docs/PROTOCOL.md).
  public static func legacyFields(of displays: [DisplayStatus]) -> (
    display: String?, x11Bridged: Bool, wayland: String?
  ) {
    let x11 = displays.first { $0.kind == "X11" && $0.bridged }?.name
    let wayland = displays.first { $0.kind == "Wayland" && $0.bridged }?.name
    return (x11, x11 != nil, wayland)
  }
}

extension StatusResponse {
  /// The displays: ``displays``, or from a broker before the list, what its `display`,
  /// `x11Bridged` and `wayland` fields say.
  public var displayList: [DisplayStatus] {
    if let displays { return displays }
    var list: [DisplayStatus] = []
    if x11Bridged, let display {
      list.append(
        DisplayStatus(kind: "X11", name: display, protocol: "ICCCM selections", bridged: true))
    }
    if let wayland {
      list.append(
        DisplayStatus(kind: "Wayland", name: wayland, protocol: "data-control", bridged: true))
    }
    return list
  }
}
