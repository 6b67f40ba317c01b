internal import CLibCrypto

/// SHA-256 through OpenSSL's libcrypto (its low-level `SHA256_*` calls), fed in chunks.
///
/// ```swift
/// let hasher = SHA256Hasher()
/// hasher.update(chunk)
/// let digest = hasher.finalize()   // 32 bytes
/// ```
///
/// The low-level calls, not EVP's: statically linked, `EVP_DigestInit_ex` brings OpenSSL's
/// providers, configuration and error machinery, 3.2 MB of `ferry` for one hash; these bring
/// the same SHA-256 assembly alone. They allocate nothing, need no `OPENSSL_init_crypto`
/// (and so no exit-time cleanup that a thread still hashing at exit could run into) and keep
/// no per-thread error state.
final class SHA256Hasher {
  private var context = SHA256_CTX()

  /// A hasher with nothing fed yet.
  init() {
    SHA256_Init(&context)
  }

  /// Feeds bytes.
  func update(_ bytes: UnsafeRawBufferPointer) {
    if bytes.isEmpty { return }
    SHA256_Update(&context, bytes.baseAddress, bytes.count)
  }

  /// The digest of everything fed: 32 bytes. The hasher is done after this.
  func finalize() -> [UInt8] {
    var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
    SHA256_Final(&digest, &context)
    return digest
  }
}
