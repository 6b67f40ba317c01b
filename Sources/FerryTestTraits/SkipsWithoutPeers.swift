import FerryTestSupport
import Testing

/// Skips a test whose peer program (Xvfb, xclip, sway, wl-clipboard, a Python toolkit, socat,
/// …) is not installed, saying which, instead of failing it: every `PeerUnavailable` the test
/// throws, from its suite's `init` on, becomes a skip. Only that error: a daemon or a
/// compositor that does not start, or a peer that misbehaves, still fails the test.
///
/// ```swift
/// @Suite(.serialized, .skipsWithoutPeers) struct CommandLineInteropTests { … }
/// ```
public struct SkipsWithoutPeers: SuiteTrait, TestTrait, TestScoping {
  public var isRecursive: Bool { true }

  public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
    testCase == nil ? nil : self
  }

  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    do {
      try await function()
    } catch let missing as PeerUnavailable {
      try Test.cancel("skipped: \(missing.description)")
    }
  }
}

extension Trait where Self == SkipsWithoutPeers {
  /// Skips a test, rather than failing it, when a peer program it needs is not installed.
  public static var skipsWithoutPeers: Self { SkipsWithoutPeers() }
}
