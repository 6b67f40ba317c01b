/// The rules for type identifiers: ASCII reverse-DNS strings compared without case.
enum TypeIdentifier {
  /// The lookup key of an identifier: its ASCII-lowercased form.
  static func key(_ identifier: String) -> String {
    TagNormalization.asciiLowercased(identifier)
  }

  /// Whether `identifier` is a well-formed identifier: ASCII letters, digits, `-` and `.`, in
  /// at least two non-empty dot-separated components.
  static func isValid(_ identifier: String) -> Bool {
    var components = 1
    var componentLength = 0
    for byte in identifier.utf8 {
      switch byte {
      case UInt8(ascii: "."):
        if componentLength == 0 { return false }
        components += 1
        componentLength = 0
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
        componentLength += 1
      default:
        return false
      }
    }
    return components >= 2 && componentLength > 0
  }

  /// The reserved namespace `identifier` falls in, if any: `public`, `dyn`, `com.apple`, or
  /// `com.example` (allowed only where examples and tests load declarations explicitly).
  static func reservedNamespace(of identifier: String) -> String? {
    let key = key(identifier)
    for namespace in ["public", "dyn", "com.apple", "com.example"]
    where key == namespace || key.hasPrefix(namespace + ".") {
      return namespace
    }
    return nil
  }
}
