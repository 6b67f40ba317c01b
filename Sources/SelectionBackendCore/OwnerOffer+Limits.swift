extension OwnerOffer {
  /// The most targets an offer keeps of what its owner lists, on every display server, but
  /// for ``wellKnownTargets``: no real program offers that many, and a hostile one must not
  /// cost a request (X11) or a transfer (Wayland) per bogus name, nor memory per name.
  public static let maximumTargets = 512

  /// Names kept wherever they appear in a list longer than ``maximumTargets``: the text
  /// targets, `MULTIPLE` and the password hint (and any Ferry process's marker).
  public static let wellKnownTargets = [
    "UTF8_STRING", "text/plain;charset=utf-8", "STRING", "TEXT", "COMPOUND_TEXT", "text/plain",
    "MULTIPLE", "x-kde-passwordManagerHint",
  ]

  /// Whether a name past the first ``maximumTargets`` of a list is kept.
  public static func isKeptPastTheLimit(_ name: String) -> Bool {
    wellKnownTargets.contains(name) || FerryMarker.isMarker(name)
  }

  /// The names of `advertised` an offer keeps: the first ``maximumTargets``, then the
  /// ``wellKnownTargets`` (and markers) after them, in the owner's order.
  public static func keptNames(_ advertised: [String]) -> [String] {
    Array(advertised.prefix(maximumTargets))
      + advertised.dropFirst(maximumTargets).filter(isKeptPastTheLimit)
  }
}
