import CLibCrypto
import FerryProtocol

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// An item as it crosses a link: its stored representations, in order, with their bytes.
public struct SyncItem: Sendable, Hashable {
  /// One representation.
  public struct Representation: Sendable, Hashable {
    /// Its type, as the broker stores it.
    public var type: String
    /// Its bytes.
    public var bytes: Data

    public init(type: String, bytes: Data) {
      self.type = type
      self.bytes = bytes
    }
  }

  /// The pasteboard it is on.
  public var pasteboard: String
  /// Where it was copied.
  public var origin: ItemOrigin
  /// Its representations, richest first.
  public var representations: [Representation]
  /// Seconds until it expires, when it does.
  public var expiresIn: Double?

  public init(
    pasteboard: String, origin: ItemOrigin, representations: [Representation],
    expiresIn: Double? = nil
  ) {
    self.pasteboard = pasteboard
    self.origin = origin
    self.representations = representations
    self.expiresIn = expiresIn
  }

  /// The bytes in all.
  public var totalBytes: Int { representations.reduce(0) { $0 + $1.bytes.count } }

  /// SHA-256 over each type and its bytes, in order: equal for the same content however it
  /// came (the backstop against echoes through programs that take the selection again).
  public var digest: [UInt8] {
    var context = SHA256_CTX()
    SHA256_Init(&context)
    for representation in representations {
      var header = Array(representation.type.utf8) + [0]
      withUnsafeBytes(of: UInt64(representation.bytes.count).bigEndian) { header += $0 }
      SHA256_Update(&context, header, header.count)
      representation.bytes.withUnsafeBytes { raw in
        _ = SHA256_Update(&context, raw.baseAddress, raw.count)
      }
    }
    var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
    SHA256_Final(&digest, &context)
    return digest
  }
}
