import FerryBroker
import FerryClient
import FerryProtocol
import FerrySystem
import FerryTestSupport
import Foundation
import Pasteboard
import Testing
import UniformTypeIdentifiers

#if canImport(Glibc)
  import Glibc
#endif

/// `watch`, concealed items, and the spool.
@Suite struct SocketWatchTests {
  /// Events a watching client has received so far.
  final class Events: Sendable {
    let received = TrackedMutex<[PasteboardState]>([])
    var all: [PasteboardState] { received.withLock { $0 } }
    func wait(for count: Int) async -> Bool {
      await Deadline.wait(for: .seconds(30)) { self.all.count >= count }
    }
  }

  /// Starts a client watching `pasteboards` on its own thread until it has `expected`
  /// events.
  static func watch(
    _ fixture: SocketFixture, _ pasteboards: [String]?, expected: Int, into events: Events
  ) async throws -> Task<Void, any Error> {
    let started = TrackedMutex(false)
    let task = Task {
      try await DetachedThread.run {
        let client = try fixture.client()
        try client.watch(
          pasteboards, idleTimeout: .seconds(10), started: { started.withLock { $0 = true } }
        ) { state in
          events.received.withLock { $0.append(state) }
          return events.all.count < expected
        }
      }
    }
    // A change written before the broker subscribed would not be reported.
    #expect(await Deadline.wait(for: .seconds(30)) { started.withLock { $0 } })
    return task
  }

  @Test func watchReportsEachChangeInOrderAndAConcealedItemOnlyAsConcealed() async throws {
    try await SocketFixture.with { fixture in
      let events = Events()
      let watcher = try await Self.watch(fixture, ["general"], expected: 4, into: events)
      // One change at a time, each event awaited: a change superseded before its event is
      // sent is not reported.
      var written: [Int] = []
      for (index, step) in ["one", "secret", "three", "clear"].enumerated() {
        let count = try await DetachedThread.run { () -> Int in
          let client = try fixture.client()
          switch step {
          case "secret":
            return try client.write(
              [.data(Data("hunter2".utf8), type: "public.utf8-plain-text")], options: [.concealed])
          case "clear":
            return try client.clear()
          default:
            return try client.write([.data(Data(step.utf8), type: "public.utf8-plain-text")])
          }
        }
        written.append(count)
        #expect(await events.wait(for: index + 1), "event \(index + 1) arrived")
      }
      try await watcher.value
      let received = events.all
      #expect(received.map(\.changeCount) == written)
      #expect(received.map(\.pasteboard) == ["general", "general", "general", "general"])
      #expect(received.map(\.concealed) == [false, true, false, false])
      #expect(
        received[1].storedTypes == ["public.utf8-plain-text"], "a concealed item's types are listed"
      )
      #expect(received[3].types.isEmpty)
    }
  }

  @Test func aWatchFollowsGeneralAndPrimaryByDefault() async throws {
    try await SocketFixture.with { fixture in
      let events = Events()
      let watcher = try await Self.watch(fixture, nil, expected: 2, into: events)
      for name in ["primary", "scratch", "general"] {
        _ = try await DetachedThread.run {
          try fixture.client().write(
            [.data(Data(name.utf8), type: "public.utf8-plain-text")], to: name)
        }
      }
      try await watcher.value
      // Order across pasteboards is not promised; each pasteboard's own order is.
      #expect(events.all.map(\.pasteboard).sorted() == ["general", "primary"])
    }
  }

  @Test func aConcealedItemsBytesNeverReachTheWatchStream() async throws {
    try await SocketFixture.with { fixture in
      let secret = "correct horse battery staple"
      let received = try await DetachedThread.run { () -> Frame? in
        let raw = try fixture.rawConnection()
        try raw.hello()
        raw.send(try Frame.json(.request, WatchRequest(pasteboards: ["general"])))
        #expect(try raw.receive()?.kind == .response)
        try fixture.client().write(
          [
            .data(Data(secret.utf8), type: "public.utf8-plain-text"),
            .data(Data("secret".utf8), type: "org.kde.password-manager-hint"),
          ])
        return try raw.receive()
      }
      let event = try #require(received)
      #expect(event.kind == .event)
      let text = String(decoding: event.body, as: UTF8.self)
      #expect(!text.contains(secret))
      #expect(
        try event.decodeJSON(PasteboardState.self).concealed, "the password-manager hint conceals")
      // Served all the same.
      let served = try await DetachedThread.run {
        try fixture.client().read(types: ["public.utf8-plain-text"]).data
      }
      #expect(served == Data(secret.utf8))
    }
  }

  @Test func largeRepresentationsAreSpooledAndTheFileGoesWithTheItem() async throws {
    try await SocketFixture.with({ $0.spoolThreshold = 64 << 10 }) { fixture in
      let large = Data(TestBytes.make(1 << 20, seed: 5))
      _ = try await DetachedThread.run {
        try fixture.client().write([
          .data(large, type: "public.data"),
          .data(Data("small".utf8), type: "public.utf8-plain-text"),
        ])
      }
      #expect(fixture.spooledFiles().count == 1, "only the large representation is spooled")
      let back = try await DetachedThread.run {
        try fixture.client().read(types: ["public.data"]).data
      }
      #expect(back == large)
      _ = try await DetachedThread.run { try fixture.client().clear() }
      #expect(await Deadline.wait(for: .seconds(30)) { fixture.spooledFiles().isEmpty })
    }
  }

  @Test(arguments: ["option", "marker", "hint"])
  func aConcealedItemIsNeverSpooled(how: String) async throws {
    try await SocketFixture.with({ $0.spoolThreshold = 1024 }) { fixture in
      let secret = Data(TestBytes.make(256 << 10, seed: 11))
      var representations: [BrokerClient.Representation] = [.data(secret, type: "public.data")]
      var options: [ItemOption] = []
      switch how {
      case "option": options = [.concealed]
      case "marker": representations.append(.data(Data(), type: "org.nspasteboard.ConcealedType"))
      default:
        representations.append(.data(Data("secret".utf8), type: "org.kde.password-manager-hint"))
      }
      let (state, back) = try await DetachedThread.run { [representations, options] in
        let client = try fixture.client()
        try client.write(representations, options: options)
        return (try client.types(), try client.read(types: ["public.data"]).data)
      }
      #expect(state.concealed)
      #expect(back == secret)
      #expect(fixture.spooledFiles().isEmpty, "\(fixture.spooledFiles())")
    }
  }

  @Test func aConcealedItemPastItsMemoryLimitIsRefusedAndThePreviousItemStays() async throws {
    try await SocketFixture.with({ $0.concealedLimit = 1 << 20 }) { fixture in
      let error = try await DetachedThread.run { () -> BrokerClientError? in
        let client = try fixture.client()
        try client.write([.data(Data("before".utf8), type: "public.utf8-plain-text")])
        do {
          try client.write(
            [.data(Data(count: 3 << 20), type: "public.data")], options: [.concealed])
        } catch { return error as? BrokerClientError }
        return nil
      }
      #expect(error?.code == .badRequest, "\(String(describing: error))")
      #expect(error?.message.contains("concealed") == true)
      let kept = try await DetachedThread.run {
        try fixture.client().read(types: ["public.utf8-plain-text"]).data
      }
      #expect(kept == Data("before".utf8))
    }
  }
}
