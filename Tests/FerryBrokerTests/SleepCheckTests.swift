import FerrySystem
import FerryTestSupport
import Foundation
import Testing

/// The product sleeps on the timer thread only (docs/ARCHITECTURE.md, "Threads"): every
/// `Task.sleep` in Sources names its clock, none sleeps on `ContinuousClock` itself, and a
/// blocking sleep is only where a thread of its own waits — as `Scripts/check-sleeps` finds
/// them, which `Scripts/test` runs before the build.
@Suite struct SleepCheckTests {
  static let script = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // FerryBrokerTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()
    .appendingPathComponent("Scripts/check-sleeps").path

  /// Runs the check on `directory` (the package's Sources without one).
  func check(_ directory: String? = nil) async throws -> PeerProcess.Result {
    let python = try #require(Peers.systemPython, "python3, which Scripts/bootstrap installs")
    return try await DetachedThread.run {
      try PeerProcess.run(
        [python, Self.script] + (directory.map { [$0] } ?? []), display: nil,
        timeout: .seconds(60))
    }
  }

  @Test func everySleepOfTheProductIsOnTheTimerThread() async throws {
    let result = try await check()
    #expect(result.status == 0, "\(result.stderrText)")
  }

  /// Each kind of mistake is found and named by its line; a named clock, a comment, a string
  /// and a sleep of the tests' own library are not mistakes.
  @Test func theCheckFindsEachSleepOffTheTimerThread() async throws {
    let root = FileManager.default.temporaryDirectory
      .appendingPathComponent("ferry-sleep-check-\(UUID().uuidString)")
    let module = root.appendingPathComponent("Module")
    let support = root.appendingPathComponent("FerryTestSupport")
    for directory in [module, support] {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }
    defer { try? FileManager.default.removeItem(at: root) }
    let sleep = "Task.sleep"
    try Data(
      """
      func fine() async throws {
        try await \(sleep)(for: .seconds(1), clock: .timerThread)
        try await \(sleep)(
          for: .seconds(1),
          clock: clock)
        // \(sleep)(for: .seconds(1)) in a comment
        let text = "\(sleep)(for: .seconds(1))"
      }
      func wrong() async throws {
        try await \(sleep)(for: .milliseconds(2))
        try await \(sleep)(nanoseconds: 1_000)
        try await ContinuousClock().sleep(for: .seconds(1))
        usleep(20_000)
      }

      """.utf8
    ).write(to: module.appendingPathComponent("Sleeps.swift"))
    try Data("func wait() { usleep(1) }\n".utf8).write(
      to: support.appendingPathComponent("Deadline.swift"))
    let result = try await check(root.path)
    #expect(result.status == 1)
    let lines = result.stderrText.split(separator: "\n").map(String.init)
    #expect(lines.count == 4, "\(lines)")
    for number in 10...13 {
      #expect(lines.contains { $0.contains("Sleeps.swift:\(number):") }, "line \(number): \(lines)")
    }
    #expect(!lines.contains { $0.contains("Deadline.swift") })
  }
}
