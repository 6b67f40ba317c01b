#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// SHA-256 digests in the lowercase hexadecimal that names blob files.
enum ContentHash {
  /// The digest of `data`.
  static func of(_ data: Data) -> String {
    let hasher = SHA256Hasher()
    data.withUnsafeBytes { hasher.update($0) }
    return hex(hasher.finalize())
  }

  /// The digest of an entry's content: its representations' types, text flags and digests,
  /// in order. Two copies with the same digest hold the same thing.
  static func ofEntry(_ representations: [StagedRepresentation]) -> String {
    let hasher = SHA256Hasher()
    for representation in representations {
      for part in [
        Array(representation.type.utf8), [0, representation.isText ? 1 : 0],
        Array(representation.sha256.utf8),
      ] {
        part.withUnsafeBytes { hasher.update($0) }
      }
    }
    return hex(hasher.finalize())
  }

  /// A digest in lowercase hexadecimal.
  static func hex(_ digest: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text = [UInt8]()
    text.reserveCapacity(64)
    for byte in digest {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
  }

  /// Whether `name` looks like a digest: 64 lowercase hexadecimal digits.
  static func isDigest(_ name: String) -> Bool {
    name.utf8.count == 64
      && name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
  }
}
