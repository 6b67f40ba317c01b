import FoundationEssentials
import SelectionBackendCore
import UniformTypeIdentifiers
import X11Selections

/// A `TARGETS` list as an owner hands it over: atom names, any bytes (Xlib gives them as C
/// strings, so without NULs), each mapped to a type (`text/plain;charset=…` and the like
/// parsed), one target per type. Input: the names, NUL-separated; a name repeated past the
/// first 64 stands for a long list.
let targetsTarget = FuzzTarget(name: "targets") { bytes in
  var names = bytes.split(separator: 0, omittingEmptySubsequences: true).map {
    String(decoding: $0, as: UTF8.self)
  }
  if names.count > 64 { names += Array(repeating: names[63], count: 600) }  // past maximumTargets
  let offer = OwnerOffer(selection: .clipboard, advertised: names)

  let limit = OwnerOffer.maximumTargets
  require(
    Array(offer.advertised.prefix(limit)) == Array(names.prefix(limit)),
    "the first \(limit) names are not kept in order")
  require(
    offer.advertised.dropFirst(limit).allSatisfy(OwnerOffer.wellKnownTargets.contains),
    "a name past the limit kept that is not well known")
  var position = offer.advertised.startIndex
  var types = Set<UTType>()
  for target in offer.targets {
    require(
      !OwnerOffer.metaTargets.contains(target.name),
      "meta target \(target.name) offered as data")
    require(target.name != OwnerOffer.concealedHint, "the password hint offered as data")
    require(types.insert(target.type).inserted, "two targets of type \(target.type.identifier)")
    guard let found = offer.advertised[position...].firstIndex(of: target.name) else {
      require(
        false, "target \(target.name.debugDescription) out of the owner's order or not listed")
      return
    }
    position = found + 1
    require(
      UTType(target.type.identifier) != nil || target.type.isDynamic,
      "\(target.type.identifier) does not look up")
  }
  let essential = offer.essentialTargets
  require(
    essential.allSatisfy { target in offer.targets.contains { $0.name == target.name } },
    "an essential target that is not a target")

  // An application saving its clipboard names targets, listed or not.
  let asked = Array(names.suffix(8)) + ["TARGETS", "UTF8_STRING"]
  let chosen = offer.targets(named: asked)
  var chosenTypes = Set<UTType>()
  for target in chosen {
    require(!OwnerOffer.metaTargets.contains(target.name), "meta target \(target.name) chosen")
    require(asked.contains(target.name), "\(target.name) chosen but not asked for")
    require(
      chosenTypes.insert(target.type).inserted,
      "two chosen targets of type \(target.type.identifier)")
  }
}
