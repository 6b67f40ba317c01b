/// The form of a tag that lookups compare.
///
/// Filename extensions compare without case and without a leading dot; MIME types compare
/// without case, without blanks around parameters and without quotes around parameter values
/// (`text/plain; charset="UTF-8"` is `text/plain;charset=utf-8`); X11 targets are atom names
/// and compare exactly.
enum TagNormalization {
  static func normalize(_ tag: String, in tagClass: UTTagClass) -> String {
    switch tagClass {
    case .filenameExtension:
      let trimmed = tag.hasPrefix(".") ? String(tag.dropFirst()) : tag
      return asciiLowercased(trimmed)
    case .mimeType:
      return normalizeMIMEType(tag)
    default:
      return tag
    }
  }

  /// Lowercases a MIME type and removes blanks and quotes from its parameters.
  static func normalizeMIMEType(_ mimeType: String) -> String {
    var needsWork = false
    for byte in mimeType.utf8 where byte == 0x20 || byte == 0x22 || byte == 0x09
      || (byte >= 0x41 && byte <= 0x5A)
    {
      needsWork = true
      break
    }
    if !needsWork { return mimeType }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(mimeType.utf8.count)
    for byte in mimeType.utf8 {
      switch byte {
      case 0x20, 0x09, 0x22: continue
      case 0x41...0x5A: bytes.append(byte + 0x20)
      default: bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Lowercases ASCII letters only, without allocating when there are none.
  static func asciiLowercased(_ string: String) -> String {
    var hasUpper = false
    for byte in string.utf8 where byte >= 0x41 && byte <= 0x5A {
      hasUpper = true
      break
    }
    if !hasUpper {
      var nonASCII = false
      for byte in string.utf8 where byte >= 0x80 {
        nonASCII = true
        break
      }
      return nonASCII ? string.lowercased() : string
    }
    return string.lowercased()
  }
}
