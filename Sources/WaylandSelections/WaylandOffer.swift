import SelectionBackendCore
import UniformTypeIdentifiers

/// The seam's view of a Wayland offer: its MIME types in the owner's order, one per type, and
/// every name the owner gave a type (its spellings, for the copy kept after it).
enum WaylandOffer {
  /// Text types that a UTF-8 type reproduces: with `text/plain;charset=utf-8` or
  /// `UTF8_STRING` in hand, these are conversions of it.
  static let textAliases: Set<String> = ["STRING", "TEXT", "COMPOUND_TEXT", "text/plain"]

  /// The offer of `types`, as the owner listed them (as far as ``OwnerOffer/keptNames(_:)``
  /// keeps them), by `owner`.
  static func make(role: SelectionRole, types listed: [String], owner: OwnerToken? = nil)
    -> OwnerOffer
  {
    let types = OwnerOffer.keptNames(listed)
    var seen = Set<UTType>()
    var names: [UTType: [String]] = [:]
    let targets = types.compactMap { name -> OwnerOffer.Target? in
      guard name != WaylandOfferTable.concealedHint, !FerryMarker.isMarker(name),
        let type = UTType(tag: name, tagClass: .x11Target, conformingTo: nil)
      else { return nil }
      names[type, default: []].append(name)
      guard seen.insert(type).inserted else { return nil }
      return OwnerOffer.Target(name: name, type: type)
    }
    let hasUTF8 = types.contains {
      $0 == "UTF8_STRING" || $0.lowercased() == "text/plain;charset=utf-8"
    }
    let essential = hasUTF8 ? targets.filter { !textAliases.contains($0.name) } : targets
    return OwnerOffer(
      role: role, targets: targets, essentialTargets: essential,
      isConcealed: types.contains(WaylandOfferTable.concealedHint), advertised: types,
      owner: owner, spellings: names)
  }
}
