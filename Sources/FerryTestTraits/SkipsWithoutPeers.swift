import FerryTestSupport
import Testing

/// Skips a test whose peer program (Xvfb, xclip, sway, wl-clipboard, a Python toolkit, socat,
/// …) is not installed, saying which, instead of failing it: every `PeerUnavailable` the test
/// throws, from its suite's `init` on, becomes a skip. Only that error: a daemon or a
/// compositor that does not start, or a peer that misbehaves, still fails the test.
///
/// The programs it is given are looked for on `PATH` before the test runs, for a test that
/// cannot throw `PeerUnavailable` itself (an exit test, whose body runs in a child process):
///
/// ```swift
/// @Suite(.serialized, .skipsWithoutPeers) struct CommandLineInteropTests { … }
/// @Test(.skipsWithoutPeers("Xvfb", "xclip")) func anOwnerAnswersWhilePoolIsBlocked() async { … }
/// ```
///
/// This is the one way a test skips for a missing peer; the skip's reason is
/// `PeerUnavailable`'s description, which names the program and how to install it.
public struct SkipsWithoutPeers: SuiteTrait, TestTrait, TestScoping {
  /// The programs that must be on `PATH` before the test runs; the first one missing skips it.
  public var programs: [String]

  /// A trait that checks `programs` first, then skips on any `PeerUnavailable` the test throws.
  public init(programs: [String] = []) { self.programs = programs }

  public var isRecursive: Bool { true }

  public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
    testCase == nil ? nil : self
  }

  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    do {
      for program in programs where Peers.path(of: program) == nil {
        throw PeerUnavailable(program: program)
      }
      try await function()
    } catch let missing as PeerUnavailable {
      try Test.cancel("skipped: \(missing.description)")
    }
  }
}

extension Trait where Self == SkipsWithoutPeers {
  /// Skips a test, rather than failing it, when a peer program it needs is not installed.
  public static var skipsWithoutPeers: Self { SkipsWithoutPeers() }

  /// Skips a test, rather than failing it, unless each of `programs` is on `PATH`, and when
  /// a peer program it needs is not installed.
  public static func skipsWithoutPeers(_ programs: String...) -> Self {
    SkipsWithoutPeers(programs: programs)
  }
}
