import FerrySystem
import FerryTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

// Ferry's owner produces its data in tasks on the concurrency pool, which has one thread per
// core: two here. A test that blocks a pool thread (waiting for a process, compiling the probe,
// generating 64 MiB) while a peer waits for Ferry can starve the owner into a timeout. So
// every blocking wait of this suite runs on a thread of its own (`DetachedThread.run`).

/// Work done once per test process, off the pool, awaited by every test that needs it.
final class OnceOffThePool<T: Sendable>: Sendable {
  private let body: @Sendable () throws -> T
  private let task = TrackedMutex<Task<T, any Error>?>(nil)

  init(_ body: @escaping @Sendable () throws -> T) { self.body = body }

  var value: T {
    get async throws {
      let task = self.task.withLock { task in
        if let task { return task }
        let body = self.body
        let started = Task { try await DetachedThread.run(body) }
        task = started
        return started
      }
      return try await task.value
    }
  }
}

extension Task where Failure == any Error {
  /// How the task ended, when it ends within `limit`; `nil` when it is still running then.
  ///
  /// For a task that only the test can end (a read whose timeout is measured on a
  /// ``ManualClock``): the limit guards against a hang and measures nothing, and a failed
  /// test does not wait for the task.
  func ended(within limit: Duration) async -> Result<Success, any Error>? {
    let outcome = TrackedMutex<Result<Success, any Error>?>(nil)
    Task<Void, Never> {
      let result = await self.result
      outcome.withLock { $0 = result }
    }
    guard await Deadline.wait(for: limit, { outcome.withLock { $0 != nil } }) else { return nil }
    return outcome.withLock { $0 }
  }
}

extension PeerProcess {
  /// Waits for `text` on standard output; when it does not come, records an issue that shows
  /// the output and throws.
  func expectOutput(
    _ text: String, timeout: Duration = .seconds(15),
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    guard await output(text, timeout: timeout) else {
      let result = await stopped()
      Issue.record(
        "peer never printed \(text.debugDescription); stdout: \(result.stdoutText) stderr: \(result.stderrText)",
        sourceLocation: sourceLocation)
      throw PeerDidNotStart()
    }
  }
}

struct PeerDidNotStart: Error {}

/// Starts a peer on `display`; throws `PeerUnavailable` when the program is not installed,
/// which the suite's `.skipsWithoutPeers` makes a skip.
func startPeer(
  _ arguments: [String], display: String, input: Data? = nil, inputFile: URL? = nil,
  outputFile: URL? = nil
) async throws -> PeerProcess {
  try PeerProcess(
    arguments, display: display, input: input, inputFile: inputFile, outputFile: outputFile)
}

/// Runs a peer on `display` to completion; throws `PeerUnavailable` when it is not installed.
func runPeer(
  _ arguments: [String], display: String, input: Data? = nil, outputFile: URL? = nil,
  timeout: Duration = .seconds(30)
) async throws -> PeerProcess.Result {
  let peer = try await startPeer(arguments, display: display, input: input, outputFile: outputFile)
  return await peer.finished(timeout: timeout)
}
