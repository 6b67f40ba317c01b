import Foundation
import Testing

@testable import ClipboardHistory

/// Issue 17, found by LeakSanitizer (904 bytes from libcrypto in one daemon of a sanitized
/// run): libcrypto tore itself down in an `atexit` handler, so a thread that ended after it
/// lost its per-thread error state, and a thread still hashing at exit hashed into a
/// library already gone. ``SHA256Hasher`` now sets libcrypto up without that handler.
@Suite struct HashingAtExitTests {
  /// SHA-256 of "abc" (FIPS 180-2's first example).
  static let abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"

  /// An exit handler registered before the first hash runs after any handler libcrypto
  /// registers then (they run in reverse order): it still hashes, and right.
  @Test func hashingStillWorksWhileTheProcessExits() async {
    await #expect(processExitsWith: .success) {
      atexit {
        // Before the fix libcrypto was gone by now: the digest could not start (a trap).
        _exit(ContentHash.of(Data("abc".utf8)) == HashingAtExitTests.abc ? 0 : 1)
      }
      guard ContentHash.of(Data("abc".utf8)) == Self.abc else { exit(2) }
      exit(3)  // the handler decides; 3 means it never ran
    }
  }
}
