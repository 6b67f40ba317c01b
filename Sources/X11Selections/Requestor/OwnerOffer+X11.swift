import SelectionBackendCore
import UniformTypeIdentifiers

/// What an owner offers on an X selection: the targets it listed in `TARGETS`, in its order,
/// each data target mapped to a type. The requestor's counterpart of the owner's target table.
///
/// ```swift
/// let offer = try await display.offer(of: .clipboard)
/// offer.targets.map(\.type)        // [public.html, public.utf8-plain-text, …]
/// let capture = await display.capture(offer, budget: 64 << 20)
/// ```
///
/// Targets that describe the selection rather than carry its data (`TARGETS`, `MULTIPLE`, …)
/// are left out of `targets`; so is a second target of a type already listed. A list longer
/// than `OwnerOffer.maximumTargets` is cut there, but for the `OwnerOffer.wellKnownTargets`
/// past the cut: no real program offers that many, and a hostile one must not cost a round
/// trip per bogus atom.
extension OwnerOffer {
  /// Targets that describe a selection or ask for a side effect, never its data.
  public static let metaTargets: Set<String> = [
    "TARGETS", "MULTIPLE", "TIMESTAMP", "DELETE", "INSERT_SELECTION", "INSERT_PROPERTY",
    "SAVE_TARGETS", "INCR", "TARGET_SIZES", "LENGTH",
  ]
  /// Text targets that a UTF-8 target's text reproduces: with `UTF8_STRING` in hand the
  /// others are conversions of it (Latin-1, compound text, ASCII).
  public static let textAliases: Set<String> = ["STRING", "TEXT", "COMPOUND_TEXT", "text/plain"]
  /// The target password managers add to mark a secret (KDE's convention, used by KeePassXC).
  public static let concealedHint = "x-kde-passwordManagerHint"

  /// Makes an offer from the names the owner of a selection listed: `targets` are the data
  /// targets among the names kept, in the owner's order, one per type; `essentialTargets` all
  /// of those but the text aliases that a UTF-8 target reproduces; the password hint conceals
  /// the offer.
  ///
  /// - Parameters:
  ///   - selection: The selection; one no role names keeps its name in `selectionName` (its
  ///     role is then `clipboard`).
  ///   - advertised: Every name the owner listed, meta targets included; the offer keeps at
  ///     most `OwnerOffer.maximumTargets` of them and the well-known ones after
  ///     (`OwnerOffer.keptNames(_:)`).
  ///   - owner: Who listed them, when known. A capture asks nothing of another owner: a
  ///     target asked after another owner took the selection would be that owner's data.
  ///   - isKeptByDesktop: Whether the owner is the desktop's keeper of the previous copy
  ///     (Mutter's restore: ``MutterSelectionBridge``).
  public init(
    selection: Selection, advertised: [String], owner: SelectionOwnership? = nil,
    isKeptByDesktop: Bool = false
  ) {
    let kept = OwnerOffer.keptNames(advertised)
    var seen = Set<UTType>()
    var names: [UTType: [String]] = [:]
    let targets = kept.compactMap { name -> Target? in
      guard !Self.metaTargets.contains(name), name != Self.concealedHint,
        !FerryMarker.isMarker(name),
        let type = UTType(tag: name, tagClass: .x11Target, conformingTo: nil)
      else { return nil }
      names[type, default: []].append(name)
      guard seen.insert(type).inserted else { return nil }
      return Target(name: name, type: type)
    }
    let hasUTF8 = targets.contains {
      $0.name == "UTF8_STRING" || $0.name.lowercased() == "text/plain;charset=utf-8"
    }
    let role = SelectionRole(selection)
    self.init(
      role: role ?? .clipboard, targets: targets,
      essentialTargets: hasUTF8 ? targets.filter { !Self.textAliases.contains($0.name) } : targets,
      isConcealed: kept.contains(Self.concealedHint), advertised: kept,
      owner: owner.map { OwnerToken($0.window, time: $0.since) },
      selectionName: role == nil ? selection.rawValue : nil, isKeptByDesktop: isKeptByDesktop,
      spellings: names)
  }

  /// The X selection offered: the one `selectionName` names, else the role's.
  public var selection: Selection {
    selectionName.map(Selection.init(rawValue:)) ?? role.selection
  }

  /// Who listed the targets, when known, as X11 says it: `owner`'s window and the server time
  /// it took the selection.
  public var ownership: SelectionOwnership? {
    owner.map {
      SelectionOwnership(
        window: XWindow(rawValue: UInt($0.owner)), since: XTimestamp(rawValue: UInt($0.generation)))
    }
  }

  /// Whether the owner lists `MULTIPLE`, several targets converted in one request.
  public var offersMultiple: Bool { advertised.contains("MULTIPLE") }

  /// Whether a capture may ask the owner for several targets in one `MULTIPLE` request: it
  /// lists `MULTIPLE`, and not as xsel 1.2.0 does. xsel lists `MULTIPLE` but exits on any
  /// `MULTIPLE` request (it reads the request's property from an uninitialized variable and
  /// dies of the `BadAtom`); it is the program that lists `INCR`, a type, among its targets.
  public var convertsMultiple: Bool { offersMultiple && !advertised.contains("INCR") }

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
