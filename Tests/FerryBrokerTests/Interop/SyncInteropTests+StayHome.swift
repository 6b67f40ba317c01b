import FerryProtocol
import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

extension SyncInteropTests {
  /// The other copies that stay on their machine, each counted by its reason on the link and
  /// none arriving: a transient copy (`org.nspasteboard.TransientType`), a KDE password
  /// manager's (`org.kde.password-manager-hint` of `secret`), and one past `--max-size`.
  @Test func copiesThatStayHomeAreCountedAndNeverArrive() async throws {
    try await SyncWorld.with(["a", "b"]) { world in
      let (a, b) = (world["a"], world["b"])
      try await world.startSync(on: a, to: ["b"], ["--max-size", "1", "--eager-size", "0"])
      let before = await b.changeCount()
      let directory = a.fixture.runtime
      func file(_ name: String, _ data: Data) throws -> String {
        let url = directory.appendingPathComponent(name)
        try data.write(to: url)
        return url.path
      }
      let text = try file("text.txt", Data("stays on a".utf8))
      let marker = try file("marker", Data("1".utf8))
      let hint = try file("hint", Data("secret".utf8))
      let large = try file("large.bin", Data(repeating: 0x61, count: 2 << 20))
      let copies: [([String], String)] = [
        (
          [
            "--type", "org.nspasteboard.TransientType", marker, "--type", "public.utf8-plain-text",
            text,
          ], "transient"
        ),
        (
          [
            "--type", "org.kde.password-manager-hint", hint, "--type", "public.utf8-plain-text",
            text,
          ], "concealed"
        ),
        (["--type", "public.utf8-plain-text", large], "tooLarge"),
      ]
      for (arguments, reason) in copies {
        let copy = try await a.fixture.run(["ferry", "copy"] + arguments)
        #expect(copy.status == 0, "\(copy.stderrText)")
        let counted = await Deadline.wait(for: .seconds(30)) {
          (try? await a.links().first?.skipped[reason]) == 1
        }
        let report = await a.report()
        #expect(counted, "\(reason): \(report)")
      }
      // A copy after them arrives, and is the only change there.
      let after = Data("an ordinary copy after them".utf8)
      try await a.xclipCopy(after, in: world)
      #expect(await b.waitForClipboard(after))
      #expect(await b.changeCount() == before + 1)
    }
  }
}
