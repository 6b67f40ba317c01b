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
      let trimmed = tag.utf8.first == UInt8(ascii: ".") ? String(tag.dropFirst()) : tag
      return asciiLowercased(trimmed)
    case .mimeType:
      return normalizeMIMEType(tag)
    default:
      return tag
    }
  }

  /// The longest tag ``withNormalized(_:in:_:)`` normalizes on the stack.
  private static let stackCapacity = 128

  /// Calls `body` with `tag` normalized as ``normalize(_:in:)`` does, without allocating for an
  /// X11 target, a MIME type of up to 128 bytes, or an ASCII extension of up to 128 bytes:
  /// the bytes are written to the stack, and hashed on the way. Longer tags and extensions with
  /// non-ASCII letters (which Unicode lowercases) go through ``normalize(_:in:)``.
  @inline(__always)
  static func withNormalized<Result>(
    _ tag: String, in tagClass: UTTagClass, _ body: (NormalizedTag) -> Result
  ) -> Result {
    let kind = tagClass.kind
    guard kind == .filenameExtension || kind == .mimeType else {
      if let result = tag.utf8.withContiguousStorageIfAvailable({ body(NormalizedTag($0)) }) {
        return result
      }
      var copy = tag
      return copy.withUTF8 { body(NormalizedTag($0)) }
    }
    let isExtension = kind == .filenameExtension
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: stackCapacity) { buffer in
      let normalized = tag.utf8.withContiguousStorageIfAvailable { source -> NormalizedTag? in
        guard source.count <= buffer.count else { return nil }
        var count = 0
        var hash = NormalizedTag.initialHash
        let start = isExtension && source.first == UInt8(ascii: ".") ? 1 : 0
        for index in start..<source.count {
          var byte = source[index]
          if isExtension {
            if byte >= 0x80 { return nil }
          } else if byte == 0x20 || byte == 0x09 || byte == 0x22 {
            continue
          }
          if byte >= 0x41 && byte <= 0x5A { byte += 0x20 }
          buffer[count] = byte
          count &+= 1
          hash = NormalizedTag.hash(hash, adding: byte)
        }
        return NormalizedTag(UnsafeBufferPointer(rebasing: buffer[..<count]), hash: hash)
      }
      if let normalized = normalized ?? nil { return body(normalized) }
      var slow = normalize(tag, in: tagClass)
      return slow.withUTF8 { body(NormalizedTag($0)) }
    }
  }

  /// Lowercases a MIME type and removes blanks and quotes from its parameters.
  static func normalizeMIMEType(_ mimeType: String) -> String {
    let clean = scan(mimeType) { byte in
      byte == 0x20 || byte == 0x22 || byte == 0x09 || (byte >= 0x41 && byte <= 0x5A)
    }
    if clean { return mimeType }
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

  /// Lowercases a string, without allocating when it has no upper-case letters.
  static func asciiLowercased(_ string: String) -> String {
    let clean = scan(string) { byte in (byte >= 0x41 && byte <= 0x5A) || byte >= 0x80 }
    return clean ? string : string.lowercased()
  }

  /// Whether no byte of `string` matches `isDirty`, read from contiguous storage when the
  /// string has it.
  @inline(__always)
  private static func scan(_ string: String, _ isDirty: (UInt8) -> Bool) -> Bool {
    if let clean = string.utf8.withContiguousStorageIfAvailable({ buffer in
      for byte in buffer where isDirty(byte) { return false }
      return true
    }) {
      return clean
    }
    for byte in string.utf8 where isDirty(byte) { return false }
    return true
  }
}
