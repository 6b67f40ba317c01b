import FerryTestSupport
import FoundationEssentials
import Logging
import Pasteboard
import SelectionBackendCore
import SelectionBackendEmbedded
import Testing
import UniformTypeIdentifiers

@testable import FerryBroker

/// X11 and Wayland bound to one pasteboard, as under XWayland: a copy one display server's
/// binding records and that comes back through the other (the compositor's own bridge, with
/// an X window focused) is one change; the capture that began first is decided first. The
/// same through sway's real bridge: `WaylandInteropTests.aFocusedXWindowMakesNoLoopWithSwaysOwnBridge`.
@Suite struct BridgeEchoesTests {
  /// Two embedded display servers bound to one new pasteboard, sharing their echoes.
  final class Harness: Sendable {
    let clock = ManualClock()
    let x11: EmbeddedSelectionBackend<ManualClock>
    let wayland: EmbeddedSelectionBackend<ManualClock>
    let pasteboard = Pasteboard(name: Pasteboard.Name(rawValue: "echo-\(UUID().uuidString)"))
    let echoes: BridgeEchoes
    let running: [Task<Void, Never>]

    init() async throws {
      echoes = BridgeEchoes(clock: clock)
      x11 = EmbeddedSelectionBackend(clock: clock)
      wayland = EmbeddedSelectionBackend(clock: clock)
      var running: [Task<Void, Never>] = []
      for backend in [x11, wayland] {
        let binding = SelectionBinding(
          pasteboard: pasteboard, role: .clipboard, backend: backend, byteBudget: 1 << 20,
          echoes: echoes, captureStepTimeout: .seconds(2), logger: Logger(label: "echo-test"))
        running.append(Task { await binding.run() })
      }
      self.running = running
      let (x11, wayland) = (x11, wayland)
      try #require(
        await Deadline.wait(for: .seconds(20)) {
          x11.watcherCount == 1 && wayland.watcherCount == 1
        }
      )
    }

    /// Stops the bindings and closes both displays, as the daemon does when it stops (see
    /// `SelectionBindingTests.Harness`).
    deinit {
      for task in running { task.cancel() }
      x11.close()
      wayland.close()
    }

    /// Waits until the pasteboard holds `text` and nothing is being captured.
    func settled(on text: String) async -> Bool {
      await Deadline.wait(for: .seconds(20)) {
        guard !pasteboard.hasPendingWrite, let item = pasteboard.items.first,
          let data = try? await item.data(for: .utf8PlainText)
        else { return false }
        return String(decoding: data, as: UTF8.self) == text
      }
    }
  }

  private static let latin1 = EmbeddedPeerTarget("STRING", .latin1PlainText, Data("same".utf8))

  @Test func aCopyComingBackFromTheOtherDisplayServerIsNotASecondChange() async throws {
    let harness = try await Harness()
    harness.x11.peerCopies(.clipboard, [.text("same")])
    #expect(await harness.settled(on: "same"))
    let count = harness.pasteboard.changeCount
    let reads = harness.wayland.readCount("STRING")
    // The compositor's bridge offers it on Wayland, with a type more.
    harness.wayland.peerCopies(.clipboard, [.text("same"), Self.latin1])
    #expect(
      await Deadline.wait(for: .seconds(20)) {
        harness.wayland.readCount("STRING") > reads && !harness.pasteboard.hasPendingWrite
      })
    #expect(harness.pasteboard.changeCount == count)
  }

  @Test func otherBytesFromTheOtherDisplayServerAreACopyOfTheirOwn() async throws {
    let harness = try await Harness()
    harness.x11.peerCopies(.clipboard, [.text("first")])
    #expect(await harness.settled(on: "first"))
    let count = harness.pasteboard.changeCount
    harness.wayland.peerCopies(.clipboard, [.text("second")])
    #expect(await harness.settled(on: "second"))
    #expect(harness.pasteboard.changeCount == count + 1)
  }

  @Test func theSameDisplayServerCopyingAgainWithMoreTypesIsAChange() async throws {
    let harness = try await Harness()
    harness.x11.peerCopies(.clipboard, [.text("same")])
    #expect(await harness.settled(on: "same"))
    let count = harness.pasteboard.changeCount
    harness.x11.peerCopies(.clipboard, [.text("same"), Self.latin1])
    #expect(
      await Deadline.wait(for: .seconds(20)) {
        !harness.pasteboard.hasPendingWrite && harness.pasteboard.changeCount == count + 1
      })
  }

  /// The window is read on the echoes' clock: past it, the same bytes from the other display
  /// server are a person's new copy, without waiting two seconds for it.
  @Test func theSameBytesFromTheOtherDisplayServerPastTheWindowAreAChange() async throws {
    let harness = try await Harness()
    harness.x11.peerCopies(.clipboard, [.text("same")])
    #expect(await harness.settled(on: "same"))
    let count = harness.pasteboard.changeCount
    harness.clock.advance(by: BridgeEchoes.window + .milliseconds(1))
    harness.wayland.peerCopies(.clipboard, [.text("same"), Self.latin1])
    #expect(
      await Deadline.wait(for: .seconds(20)) {
        !harness.pasteboard.hasPendingWrite && harness.pasteboard.changeCount == count + 1
      })
  }

  /// A wait for another binding's earlier capture ends when its limit passes on the echoes'
  /// clock, and at once when that capture ends; nothing polls.
  @Test func aWaitEndsAtItsLimitOnTheEchoesClockOrWhenTheEarlierCaptureEnds() async throws {
    let clock = ManualClock()
    let echoes = BridgeEchoes(clock: clock)
    let (x11, wayland) = (NSObjectLike(), NSObjectLike())
    let first = echoes.began(by: x11)
    let second = echoes.began(by: wayland)
    let timedOut = Task {
      await echoes.waitForEarlierCaptures(than: second, of: wayland, within: .seconds(5))
    }
    try #require(await Deadline.wait(for: .seconds(20)) { clock.sleeperCount == 1 })
    clock.advance(by: .seconds(4))
    #expect(clock.sleeperCount == 1, "still waiting a second before its limit")
    clock.advance(by: .seconds(1))
    #expect(await timedOut.value == false, "the limit passed on the manual clock")
    let woken = Task {
      await echoes.waitForEarlierCaptures(than: second, of: wayland, within: .seconds(5))
    }
    try #require(await Deadline.wait(for: .seconds(20)) { clock.sleeperCount == 1 })
    echoes.ended(first)
    #expect(await woken.value, "the earlier capture ended: no time passed on the clock")
    #expect(clock.sleeperCount == 0, "the wait's timer is gone with it")
  }

  @Test func aCaptureWaitsForTheOtherDisplayServersEarlierOne() async {
    let echoes = BridgeEchoes()
    let (x11, wayland) = (NSObjectLike(), NSObjectLike())
    let first = echoes.began(by: x11)
    let second = echoes.began(by: wayland)
    #expect(await echoes.waitForEarlierCaptures(than: first, of: x11, within: .seconds(20)))
    #expect(
      await !echoes.waitForEarlierCaptures(than: second, of: wayland, within: .milliseconds(20)),
      "the earlier capture is still open")
    echoes.ended(first)
    #expect(await echoes.waitForEarlierCaptures(than: second, of: wayland, within: .seconds(20)))
  }

  @Test func aBindingNeverWaitsForItsOwnEarlierCapture() async {
    let echoes = BridgeEchoes()
    let binding = NSObjectLike()
    _ = echoes.began(by: binding)
    let second = echoes.began(by: binding)
    #expect(await echoes.waitForEarlierCaptures(than: second, of: binding, within: .seconds(20)))
  }

  /// A stand-in for a binding: only its identity counts.
  final class NSObjectLike: Sendable {}
}
