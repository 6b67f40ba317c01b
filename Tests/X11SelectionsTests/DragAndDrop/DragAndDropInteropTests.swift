import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

extension DragAndDropTests {
  /// Real drags on the suite's own Xvfb, driven by xdotool, between the built `ferry drop` /
  /// `ferry drag` and GTK 3 peers (`Tests/Peers/dnd_*.py`), and a target that never answers
  /// (`Tests/Peers/dnd_silent_target.c`). Windows: the source at (0, 0), the target at
  /// (400, 0), 200×200 each unless said otherwise.
  @Suite(.serialized, .skipsWithoutPeers) struct DragAndDropInteropTests {
    static let targetCenter = (x: 500, y: 100)

    /// Starts `ferry` with `arguments` and waits for its ready line.
    private func ferry(_ arguments: [String], on display: String) async throws -> Child {
      let ferry = try Child.start([try DragPeers.ferry] + arguments, display: display)
      let ready = await ferry.wait { $0.stderr.contains("ready") }
      if !ready {
        let result = ferry.stop()
        Issue.record(
          "ferry \(arguments.first ?? "") never said it was ready; stderr: \(result.stderr)")
        throw PeerDidNotStart()
      }
      return ferry
    }

    /// Waits for a JSON peer's `ready` line.
    private func waitReady(_ peer: Child, sourceLocation: SourceLocation = #_sourceLocation)
      async throws
    {
      let ready = await peer.wait {
        $0.jsonLines.contains { $0["event"] as? String == "ready" } || $0.stdout.hasPrefix("ready")
      }
      if !ready {
        let result = peer.stop()
        Issue.record(
          "peer never became ready; stdout: \(result.stdout) stderr: \(result.stderr)",
          sourceLocation: sourceLocation)
        throw PeerDidNotStart()
      }
    }

    private func events(_ name: String, in peer: Child) -> [[String: Any]] {
      peer.jsonLines.filter { $0["event"] as? String == name }
    }

    // MARK: GTK source → ferry drop

    /// GTK offers four text targets: XdndTypeList with empty inline slots. Every one is read,
    /// in GTK's order, and `--json` prints them with their text.
    @Test func gtkTextDropsIntoFerryDrop() async throws {
      let server = try await DragServer.start()
      let drop = try await ferry(
        ["drop", "--json", "--and-exit", "--geometry", "200x200+400+0"], on: server.name)
      defer { drop.stop() }
      let source = try await DragPeers.gtk(
        "dnd_source.py", ["0", "0", "text", "dragged text ✓"], display: server.name)
      defer { source.stop() }
      try await waitReady(source)

      try await Drag.perform(on: server.name, from: (100, 100), to: Self.targetCenter)

      let result = await drop.finished(timeout: .seconds(15))
      #expect(result.status == 0, "stderr: \(result.stderr)")
      let lines = result.stdout.split(separator: "\n")
      try #require(lines.count == 1, "one JSON line per drop; stdout: \(result.stdout)")
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
      let offered = ["text/plain;charset=utf-8", "UTF8_STRING", "STRING", "TEXT"]
      #expect(object["offered"] as? [String] == offered, "the whole XdndTypeList, in GTK's order")
      let types = try #require(object["types"] as? [[String: Any]])
      let targets = types.compactMap { $0["target"] as? String }
      #expect(targets.first == "text/plain;charset=utf-8")
      #expect(targets == offered.filter(targets.contains), "received in the source's order")
      let utf8 = types.first { $0["target"] as? String == "UTF8_STRING" }
      #expect(utf8?["text"] as? String == "dragged text ✓")
      #expect(utf8?["type"] as? String == "public.utf8-plain-text")
      #expect(object["action"] as? String == "copy")
      _ = await source.wait { !self.events("drag-end", in: $0).isEmpty }
      #expect(
        events("drag-failed", in: source).isEmpty, "GTK saw the drop succeed: \(source.stdout)")
      #expect(events("drag-end", in: source).count == 1)
    }

    /// A list of files from GTK prints as URIs by default, as paths with `--print-path`.
    @Test(arguments: [false, true])
    func gtkFilesDropIntoFerryDrop(printPath: Bool) async throws {
      let server = try await DragServer.start()
      let scratch = try ScratchDirectory("dnd")
      let files = [scratch.file("notes.txt"), scratch.file("with space ✓.png")]
      for file in files { try Data("x".utf8).write(to: file) }
      let drop = try await ferry(
        ["drop", "--and-exit", "--geometry", "200x200+400+0"] + (printPath ? ["--print-path"] : []),
        on: server.name)
      defer { drop.stop() }
      let source = try await DragPeers.gtk(
        "dnd_source.py", ["0", "0", "files"] + files.map(\.path), display: server.name)
      defer { source.stop() }
      try await waitReady(source)

      try await Drag.perform(on: server.name, from: (100, 100), to: Self.targetCenter)

      let result = await drop.finished(timeout: .seconds(15))
      #expect(result.status == 0, "stderr: \(result.stderr)")
      let expected = printPath ? files.map(\.path) : files.map(\.absoluteString)
      #expect(result.stdout.split(separator: "\n").map(String.init) == expected)
      #expect(!printPath || !result.stdout.contains("%20"))
      #expect(printPath || result.stdout.contains("with%20space%20%E2%9C%93.png"))
    }

    // MARK: ferry drag → GTK target

    /// `ferry drag` delivers `text/uri-list` with the right URIs: one file, all files as one
    /// entry, or the second of two entries.
    @Test(arguments: [
      (files: 1, all: false, entry: 1), (files: 2, all: true, entry: 1),
      (files: 2, all: false, entry: 2),
    ])
    func ferryDragDeliversURIsToGTK(files count: Int, all: Bool, entry: Int) async throws {
      let server = try await DragServer.start()
      let scratch = try ScratchDirectory("dnd")
      let files = (1...count).map { scratch.file("file \($0).txt") }
      for file in files { try Data("content".utf8).write(to: file) }
      let target = try await DragPeers.gtk("dnd_target.py", ["400", "0"], display: server.name)
      defer { target.stop() }
      try await waitReady(target)
      let drag = try await ferry(
        ["drag", "--and-exit", "--verbose", "--geometry", "360x160+0+0"] + (all ? ["--all"] : [])
          + files.map(\.path),
        on: server.name)
      defer { drag.stop() }
      let frame = try #require(entryFrame(entry, in: drag.stderr), "stderr: \(drag.stderr)")

      try await Drag.perform(
        on: server.name, from: (frame.x + frame.width / 2, frame.y + frame.height / 2),
        to: Self.targetCenter)

      let result = await drag.finished(timeout: .seconds(15))
      #expect(result.status == 0, "stderr: \(result.stderr)")
      _ = await target.wait { !self.events("received", in: $0).isEmpty }
      let received = try #require(
        events("received", in: target).first, "target log: \(target.stdout)")
      #expect(received["target"] as? String == "text/uri-list")
      let expected = all ? files.map(\.absoluteString) : [files[entry - 1].absoluteString]
      #expect(received["uris"] as? [String] == expected)
      #expect(received["action"] as? String == "copy")
    }

    /// More than three types: the GTK target sees them all, which it can only learn from
    /// `XdndTypeList`, in the item's order, the content type by extension among them.
    @Test func ferryOffersMoreThanThreeTypesThroughXdndTypeList() async throws {
      let server = try await DragServer.start()
      let scratch = try ScratchDirectory("dnd")
      let file = scratch.file("picture.png")
      try Data([0x89, 0x50, 0x4e, 0x47]).write(to: file)
      let target = try await DragPeers.gtk("dnd_target.py", ["400", "0"], display: server.name)
      defer { target.stop() }
      try await waitReady(target)
      let drag = try await ferry(
        ["drag", "--and-exit", "--verbose", "--geometry", "360x160+0+0", file.path], on: server.name
      )
      defer { drag.stop() }
      let frame = try #require(entryFrame(1, in: drag.stderr))

      try await Drag.perform(
        on: server.name, from: (frame.x + 40, frame.y + frame.height / 2), to: Self.targetCenter)

      let result = await drag.finished(timeout: .seconds(15))
      #expect(result.status == 0, "stderr: \(result.stderr)")
      let motion = try #require(events("motion", in: target).first, "target log: \(target.stdout)")
      let offered = try #require(motion["offered"] as? [String])
      #expect(offered.count > 3)
      #expect(
        Array(offered.prefix(2)) == ["text/uri-list", "image/png"],
        "stored types first, in order: \(offered)")
      for type in ["x-special/gnome-copied-files", "UTF8_STRING", "text/plain;charset=utf-8"] {
        #expect(offered.contains(type), "\(type) in \(offered)")
      }
    }

    /// Escape cancels: the target gets a leave and no drop, and nobody holds the pointer.
    @Test func escapeCancelsTheDrag() async throws {
      let server = try await DragServer.start()
      let scratch = try ScratchDirectory("dnd")
      let file = scratch.file("cancel.txt")
      try Data("x".utf8).write(to: file)
      let target = try await DragPeers.gtk("dnd_target.py", ["400", "0"], display: server.name)
      defer { target.stop() }
      try await waitReady(target)
      let drag = try await ferry(
        ["drag", "--and-exit", "--verbose", "--geometry", "360x160+0+0", file.path], on: server.name
      )
      defer { drag.stop() }
      let frame = try #require(entryFrame(1, in: drag.stderr))

      try await Drag.perform(
        on: server.name, from: (frame.x + 40, frame.y + frame.height / 2), to: Self.targetCenter,
        escape: true)

      let result = await drag.finished(timeout: .seconds(10))
      #expect(result.status == 1, "stderr: \(result.stderr)")
      #expect(result.stderr.contains("cancelled"))
      let left = await target.wait { !self.events("leave", in: $0).isEmpty }
      #expect(left, "target log: \(target.stdout)")
      #expect(events("drop", in: target).isEmpty)
      #expect(events("received", in: target).isEmpty)
      #expect(try await pointerIsFree(on: server.name))
    }

    // MARK: A target that never answers

    /// A window with XdndAware = 5 that never sends XdndStatus: after the release, `ferry drag`
    /// waits its deadline, sends XdndLeave, releases the grabs, and exits 4 with a message.
    @Test func aTargetThatNeverAnswersIsGivenUp() async throws {
      let server = try await DragServer.start()
      let scratch = try ScratchDirectory("dnd")
      let file = scratch.file("unanswered.txt")
      try Data("x".utf8).write(to: file)
      let silent = try Child.start(
        [try await DragPeers.silent(), "400", "0"], display: server.name)
      defer { silent.stop() }
      try await waitReady(silent)
      let drag = try await ferry(
        ["drag", "--and-exit", "--verbose", "--geometry", "360x160+0+0", file.path], on: server.name
      )
      defer { drag.stop() }
      let frame = try #require(entryFrame(1, in: drag.stderr))

      try await Drag.perform(
        on: server.name, from: (frame.x + 40, frame.y + frame.height / 2), to: Self.targetCenter)

      // Status 4 and the message: it gave up at its own deadline (one the test had to kill
      // would have no status).
      let result = await drag.finished(timeout: .seconds(30))
      #expect(result.status == 4, "stderr: \(result.stderr)")
      #expect(result.stderr.contains("stopped answering"), "stderr: \(result.stderr)")
      #expect(result.stderr.contains("XdndStatus"))
      let log = silent.stdout.split(separator: "\n").map(String.init)
      #expect(log.contains("XdndEnter"))
      #expect(
        log.filter { $0 == "XdndPosition" }.count == 1, "no second position before a status: \(log)"
      )
      #expect(log.last == "XdndLeave", "the source said goodbye: \(log)")
      #expect(!log.contains("XdndDrop"))
      #expect(try await pointerIsFree(on: server.name))
    }

    /// Whether a second client can grab the pointer.
    private func pointerIsFree(on display: String) async throws -> Bool {
      let silent = try await DragPeers.silent()
      let result = try await DetachedThread.run {
        try Child.run([silent, "grab"], display: display)
      }
      return result.stdout.contains("grab 0")
    }
  }
}
