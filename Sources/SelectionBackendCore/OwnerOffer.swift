import UniformTypeIdentifiers

/// What the owner of a selection offers: its data targets in its order, each with a type.
///
/// A target is the display server's name for a representation (X11: an atom such as
/// `UTF8_STRING`; Wayland: a MIME type). The backend makes the offer: it leaves out targets
/// that describe the selection rather than carry its data, and keeps one target per type.
public struct OwnerOffer: Sendable, Equatable {
  /// One data target and the type it carries.
  public struct Target: Sendable, Hashable {
    /// The display server's name for it (`UTF8_STRING`, `image/png`).
    public var name: String
    /// The type of its data.
    public var type: UTType

    /// Creates a target.
    public init(name: String, type: UTType) {
      self.name = name
      self.type = type
    }
  }

  /// The selection offered.
  public var role: SelectionRole
  /// The data targets, in the owner's order.
  public var targets: [Target]
  /// The targets worth keeping: ``targets`` but those another target reproduces (X11's text
  /// aliases of `UTF8_STRING`).
  public var essentialTargets: [Target]
  /// Whether the owner marked the data as a secret, not to be kept.
  public var isConcealed: Bool
  /// Every name the owner listed, as the backend read them (X11: `TARGETS`, meta targets
  /// and all), for the backend's own use.
  public var advertised: [String]
  /// The owner that made the offer, when the backend knows it: a capture of the offer asks
  /// nothing of a later owner.
  public var owner: OwnerToken?
  /// The display server's name for the selection when the backend reads selections beyond
  /// the roles (X11: any atom a program names); `nil`: the role's.
  public var selectionName: String?
  /// Whether the owner is the desktop's own keeper of the previous copy: the compositor,
  /// holding part of a copy whose owner went away (GNOME's Mutter keeps one type, text or an
  /// image, on its own window). A broker that holds that copy whole serves it instead
  /// (``DesktopClipboardKeeper``); `false` for every application's copy.
  public var isKeptByDesktop: Bool
  /// Every name the owner listed for each data type, in its order (`text/plain;charset=UTF-8`
  /// as well as `text/plain;charset=utf-8`, where ``targets`` keeps one a type): a copy kept
  /// after the owner went answers to each, spelled as the owner spelled it.
  public var spellings: [UTType: [String]]

  /// Creates an offer; `essentialTargets` defaults to all of `targets`, `advertised` to
  /// their names.
  public init(
    role: SelectionRole, targets: [Target], essentialTargets: [Target]? = nil,
    isConcealed: Bool = false,
    advertised: [String]? = nil, owner: OwnerToken? = nil, selectionName: String? = nil,
    isKeptByDesktop: Bool = false, spellings: [UTType: [String]] = [:]
  ) {
    self.isKeptByDesktop = isKeptByDesktop
    self.spellings = spellings
    self.owner = owner
    self.selectionName = selectionName
    self.role = role
    self.targets = targets
    self.essentialTargets = essentialTargets ?? targets
    self.isConcealed = isConcealed
    self.advertised = advertised ?? targets.map(\.name)
  }
}
