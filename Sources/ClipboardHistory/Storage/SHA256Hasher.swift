internal import CLibCrypto

/// SHA-256 through OpenSSL's libcrypto (its EVP digest interface), fed in chunks.
///
/// ```swift
/// let hasher = SHA256Hasher()
/// hasher.update(chunk)
/// let digest = hasher.finalize()   // 32 bytes
/// ```
final class SHA256Hasher {
  private let context: OpaquePointer

  /// libcrypto set up without its exit-time cleanup, before any other call into it.
  ///
  /// By default libcrypto frees its state in an `atexit` handler. A thread still running at
  /// exit (an event loop, a history write) can then hash into a library already torn down,
  /// and a thread that hashed and ends after that handler loses its per-thread error state
  /// (904 bytes, which LeakSanitizer reported from one daemon of a sanitized run): the
  /// handler deletes the key whose destructor would have freed it. Without the handler the
  /// library stays usable to the last instruction and the process's end frees everything.
  private static let library: Void = {
    _ = OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ATEXIT), nil)
  }()

  /// A hasher with nothing fed yet.
  init() {
    Self.library
    // Both fail only when memory runs out, as an allocation would.
    guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
      fatalError("OpenSSL could not start a SHA-256 digest")
    }
    self.context = context
  }

  deinit { EVP_MD_CTX_free(context) }

  /// Feeds bytes.
  func update(_ bytes: UnsafeRawBufferPointer) {
    if bytes.isEmpty { return }
    EVP_DigestUpdate(context, bytes.baseAddress, bytes.count)
  }

  /// The digest of everything fed: 32 bytes. The hasher is done after this.
  func finalize() -> [UInt8] {
    var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
    var length: UInt32 = 0
    EVP_DigestFinal_ex(context, &digest, &length)
    return Array(digest.prefix(Int(length)))
  }
}
