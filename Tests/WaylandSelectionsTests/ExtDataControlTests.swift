import FerryTestSupport
import FerryTestTraits
import Foundation
import Pasteboard
import SelectionBackendCore
import Testing
import UniformTypeIdentifiers
import WaylandSelections

/// The `ext-data-control-v1` path, which no Debian 12 compositor offers, against a small
/// compositor built here on libwayland-server (Tests/Peers/ext_compositor.c, with the glue
/// wayland-scanner makes of the vendored XML): one Ferry connection owns, another reads.
@Suite(.serialized, .skipsWithoutPeers) struct ExtDataControlTests {
  /// A running test compositor: the process, its socket's path, its runtime directory.
  struct Compositor {
    var process: PeerProcess
    var socket: String
    var runtime: URL

    func stop() {
      _ = process.kill()
      try? FileManager.default.removeItem(at: runtime)
    }
  }

  /// Starts the compositor with `arguments` after its runtime directory.
  static func start(_ arguments: [String] = []) async throws -> Compositor {
    let program = try await DetachedThread.run { try Self.buildCompositor() }
    let runtime = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ferry-ext-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(
      at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let started = try PeerProcess([program, runtime.path] + arguments, display: nil)
    var name = ""
    let ready = await Deadline.wait(for: .seconds(20)) {
      name = started.outputSoFar.trimmingCharacters(in: .whitespacesAndNewlines)
      return !name.isEmpty || !started.process.isRunning
    }
    guard ready, !name.isEmpty else {
      let result = try await DetachedThread.run { started.kill() }
      throw CompositorFailed(
        source: "ext_compositor.c", output: "it did not start: \(result.stderrText)")
    }
    return Compositor(
      process: started, socket: runtime.appendingPathComponent(name).path, runtime: runtime)
  }

  /// Builds the compositor once per source text: wayland-scanner's server glue, then cc.
  @available(*, noasync)
  static func buildCompositor() throws -> String {
    guard let scanner = Peers.path(of: "wayland-scanner") else {
      throw PeerUnavailable(program: "wayland-scanner (libwayland-bin)")
    }
    guard let cc = Peers.path(of: "cc") else { throw PeerUnavailable(program: "cc") }
    let package = CompiledPeer.sourceDirectory.deletingLastPathComponent()
      .deletingLastPathComponent()
    let xml = package.appendingPathComponent("Support/wayland-protocols/ext-data-control-v1.xml")
      .path
    let source = CompiledPeer.sourceDirectory.appendingPathComponent("ext_compositor.c").path
    let text =
      try Data(contentsOf: URL(fileURLWithPath: source))
      + Data(contentsOf: URL(fileURLWithPath: xml))
    let hash = text.reduce(UInt64(0xCBF2_9CE4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ferry-ext-compositor-\(String(hash, radix: 16))")
    let program = directory.appendingPathComponent("ext_compositor").path
    if FileManager.default.isExecutableFile(atPath: program) { return program }
    let scratch = directory.path + ".\(getpid())"
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    for (mode, file) in [
      ("server-header", "ext-data-control-v1-server-protocol.h"),
      ("private-code", "ext-data-control-v1-protocol.c"),
    ] {
      let made = try PeerProcess.run([scanner, mode, xml, "\(scratch)/\(file)"], display: nil)
      guard made.status == 0 else { throw CompositorFailed(source: xml, output: made.stderrText) }
    }
    let built = try PeerProcess.run(
      [
        cc, "-O1", "-I", scratch, "-o", "\(scratch)/ext_compositor", source,
        "\(scratch)/ext-data-control-v1-protocol.c", "-lwayland-server",
      ],
      display: nil, timeout: .seconds(60))
    guard built.status == 0 else {
      if built.stderrText.contains("wayland-server.h") {
        throw PeerUnavailable(program: "libwayland-dev")
      }
      throw CompositorFailed(source: "ext_compositor.c", output: built.stderrText)
    }
    if rename(scratch, directory.path) != 0, !FileManager.default.isExecutableFile(atPath: program)
    {
      throw CompositorFailed(
        source: "ext_compositor.c", output: "rename: \(String(cString: strerror(errno)))")
    }
    try? FileManager.default.removeItem(atPath: scratch)
    return program
  }

  private func item(_ text: String) -> PasteboardItem {
    PasteboardItem(representations: [.data(Data(text.utf8), type: .utf8PlainText)])
  }

  private func text(_ reader: WaylandSelectionBackend, _ role: SelectionRole) async throws
    -> String?
  {
    let offer = try await reader.offer(of: role, stepTimeout: .seconds(5))
    let capture = await reader.capture(offer, budget: 1 << 20, stepTimeout: .seconds(5))
    return capture.entries.first { $0.target.type == .utf8PlainText }?.data.map {
      String(decoding: $0, as: UTF8.self)
    }
  }

  @Test func ferryBindsExtAndCopiesBothSelectionsThroughIt() async throws {
    let compositor = try await Self.start()
    defer { compositor.stop() }
    let socket = compositor.socket
    let owner = try WaylandSelectionBackend(socket: socket)
    let reader = try WaylandSelectionBackend(socket: socket)
    #expect(await owner.protocolName == "ext-data-control-v1")
    try await owner.own(.clipboard, item: item("through ext"))
    #expect(
      await Deadline.wait(for: .seconds(10)) {
        (try? await text(reader, .clipboard)) == "through ext"
      })
    try await owner.own(.primary, item: item("primary through ext"))
    #expect(
      await Deadline.wait(for: .seconds(10)) {
        (try? await text(reader, .primary)) == "primary through ext"
      })
    owner.close()
    reader.close()
  }

  @Test func aReplacedSourceIsCancelledAndItsOwnerTold() async throws {
    let compositor = try await Self.start()
    defer { compositor.stop() }
    let socket = compositor.socket
    let first = try WaylandSelectionBackend(socket: socket)
    let second = try WaylandSelectionBackend(socket: socket)
    let lost = Flag()
    try await first.own(.clipboard, item: item("first"), onlyIfUnowned: false) { lost.set() }
    try await second.own(.clipboard, item: item("second"))
    #expect(await Deadline.wait(for: .seconds(10)) { lost.isSet })
    #expect(try await text(first, .clipboard) == "second")
    second.close()
    #expect(
      await Deadline.wait(for: .seconds(10)) { (try? await first.owner(of: .clipboard)) == nil },
      "the owner's connection closed: the selection is empty")
    first.close()
  }
}

extension ExtDataControlTests {
  /// A compositor without data-control (as GNOME and weston) is one line naming what is
  /// missing and what still works, never a hang or a crash.
  @Test func aCompositorWithoutDataControlIsOneLine() async throws {
    let compositor = try await Self.start(["--no-data-control"])
    defer { compositor.stop() }
    do {
      _ = try WaylandSelectionBackend(socket: compositor.socket)
      Issue.record("a compositor without data-control was accepted")
    } catch {
      guard case .cannotConnect(let message) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(message.contains("offers no data-control protocol"), "\(message)")
      #expect(message.contains("XWayland"), "says what still works: \(message)")
      #expect(!message.contains("\n"))
    }
  }
}

extension ExtDataControlTests {
  /// A closed connection's socket is closed once: a second close of its descriptor number
  /// would close whatever the process opened under that number since (a stress run saw
  /// Foundation's FileHandle die of EBADF that way).
  @Test func aClosedConnectionNeverClosesAnotherFile() async throws {
    let compositor = try await Self.start()
    defer { compositor.stop() }
    var backend: WaylandSelectionBackend? = try WaylandSelectionBackend(socket: compositor.socket)
    backend?.close()
    let ended = await Deadline.wait(for: .seconds(10)) {
      do {
        _ = try await backend?.owner(of: .clipboard)
        return false
      } catch {
        return (error as? BackendError) == .connectionLost
      }
    }
    #expect(ended, "the connection's thread ended")
    // The lowest free numbers: the socket's, if nothing took it since.
    let pipe = try FileDescriptor.closeOnExecPipe()
    defer {
      try? pipe.readEnd.close()
      try? pipe.writeEnd.close()
    }
    backend = nil
    #expect(
      fcntl(pipe.readEnd.rawValue, F_GETFD) != -1, "a descriptor of the test was closed under it")
    #expect(
      fcntl(pipe.writeEnd.rawValue, F_GETFD) != -1, "a descriptor of the test was closed under it")
  }
}

/// A flag one thread sets and another reads.
private final class Flag: Sendable {
  private let value = TrackedMutex(false)
  func set() { value.withLock { $0 = true } }
  var isSet: Bool { value.withLock { $0 } }
}

/// The test compositor could not be built or started: a failure, never a missing peer.
struct CompositorFailed: Error, CustomStringConvertible {
  var source: String
  var output: String
  var description: String { "\(source): \(output)" }
}
