import SelectionBackend
import UniformTypeIdentifiers

/// What an owner offers on a selection: the targets it listed in `TARGETS`, in its order,
/// each data target mapped to a type. The requestor's counterpart of the owner's target table.
///
/// ```swift
/// let offer = try await display.offer(of: .clipboard)
/// offer.targets.map(\.type)        // [public.html, public.utf8-plain-text, …]
/// let capture = await display.capture(offer, budget: 64 << 20)
/// ```
///
/// Targets that describe the selection rather than carry its data (`TARGETS`, `MULTIPLE`, …)
/// are left out of ``targets``; so is a second target of a type already listed. A list longer
/// than ``maximumTargets`` is cut there, but for the ``wellKnownTargets`` past the cut: no real
/// program offers that many, and a hostile one must not cost a round trip per bogus atom.
public struct SelectionOffer: Sendable, Equatable {
  /// One data target and the type it carries.
  public struct Target: Sendable, Hashable {
    /// The target atom's name (`UTF8_STRING`, `image/png`).
    public var name: String
    /// The type of its data.
    public var type: UTType

    /// Creates a target.
    public init(name: String, type: UTType) {
      self.name = name
      self.type = type
    }
  }

  /// Targets that describe a selection or ask for a side effect, never its data.
  public static let metaTargets: Set<String> = [
    "TARGETS", "MULTIPLE", "TIMESTAMP", "DELETE", "INSERT_SELECTION", "INSERT_PROPERTY",
    "SAVE_TARGETS", "INCR", "TARGET_SIZES", "LENGTH",
  ]
  /// Text targets that a UTF-8 target's text reproduces: with `UTF8_STRING` in hand the
  /// others are conversions of it (Latin-1, compound text, ASCII).
  public static let textAliases: Set<String> = ["STRING", "TEXT", "COMPOUND_TEXT", "text/plain"]
  /// The most targets an offer keeps, but for ``wellKnownTargets``: the seam's limit, the
  /// same on Wayland (`OwnerOffer.maximumTargets`).
  public static let maximumTargets = OwnerOffer.maximumTargets
  /// Targets kept wherever they appear in a list longer than ``maximumTargets``: the text
  /// targets, `MULTIPLE` and the password hint (`OwnerOffer.wellKnownTargets`).
  public static let wellKnownTargets = OwnerOffer.wellKnownTargets
  /// The target password managers add to mark a secret (KDE's convention, used by KeePassXC).
  public static let concealedHint = "x-kde-passwordManagerHint"

  /// The selection offered.
  public var selection: Selection
  /// Every target the owner listed, meta targets included, at most ``maximumTargets`` and
  /// the ``wellKnownTargets`` after them.
  public var advertised: [String]
  /// The data targets, in the owner's order, one per type.
  public var targets: [Target]
  /// Who listed them, when known. A capture asks nothing of another owner: a target asked
  /// after another owner took the selection would be that owner's data.
  public var owner: SelectionOwnership?

  /// Makes an offer from the names an owner listed.
  public init(selection: Selection, advertised: [String], owner: SelectionOwnership? = nil) {
    self.selection = selection
    self.owner = owner
    self.advertised = OwnerOffer.keptNames(advertised)
    var seen = Set<UTType>()
    targets = self.advertised.compactMap { name in
      guard !Self.metaTargets.contains(name), name != Self.concealedHint,
        !FerryMarker.isMarker(name),
        let type = UTType(tag: name, tagClass: .x11Target, conformingTo: nil),
        seen.insert(type).inserted
      else { return nil }
      return Target(name: name, type: type)
    }
  }

  /// Whether the owner lists `MULTIPLE`, several targets converted in one request.
  public var offersMultiple: Bool { advertised.contains("MULTIPLE") }

  /// Whether a capture may ask the owner for several targets in one `MULTIPLE` request: it
  /// lists `MULTIPLE`, and not as xsel 1.2.0 does. xsel lists `MULTIPLE` but exits on any
  /// `MULTIPLE` request (it reads the request's property from an uninitialized variable and
  /// dies of the `BadAtom`); it is the program that lists `INCR`, a type, among its targets.
  public var convertsMultiple: Bool { offersMultiple && !advertised.contains("INCR") }

  /// Whether the owner marked its data as a secret, not to be kept.
  public var isConcealed: Bool { advertised.contains(Self.concealedHint) }

  /// The targets worth copying: all of ``targets`` but the text aliases that a UTF-8 target
  /// reproduces.
  public var essentialTargets: [Target] {
    let hasUTF8 = targets.contains {
      $0.name == "UTF8_STRING" || $0.name.lowercased() == "text/plain;charset=utf-8"
    }
    return hasUTF8 ? targets.filter { !Self.textAliases.contains($0.name) } : targets
  }

  /// The targets among `names`, in the owner's order; names it did not list follow, in the
  /// order given (an application saving its clipboard may name targets it does not list).
  public func targets(named names: [String]) -> [Target] {
    let listed = targets.filter { names.contains($0.name) }
    let unlisted = names.filter { name in
      !Self.metaTargets.contains(name) && !targets.contains { $0.name == name }
    }
    var seen = Set(listed.map(\.type))
    return listed
      + unlisted.compactMap { name in
        guard let type = UTType(tag: name, tagClass: .x11Target, conformingTo: nil),
          seen.insert(type).inserted
        else { return nil }
        return Target(name: name, type: type)
      }
  }
}
