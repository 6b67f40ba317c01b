import FerryBroker
import FerryClient
import FerryCommandLine
import FerryProtocol
import FerryTestSupport
import Foundation
import Pasteboard
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Where the socket lives, and the permission checks on its directory and file.
@Suite struct SocketPathTests {
  @Test(arguments: [
    (":0", "display-0"), (":1.0", "display-1"), ("localhost:10.0", "display-localhost-10"),
    ("host/unix:2", "display-host_unix-2"), ("", "headless"),
  ])
  func socketNameComesFromTheDisplay(display: String, name: String) {
    #expect(SocketPath.socketName(forDisplay: display) == name)
  }

  @Test(arguments: [
    (nil, "wayland-1", "wayland-1"), (nil, "/run/user/1000/wayland-0", "wayland-0"),
    (nil, "sway session", "wayland-sway_session"), (":0", "wayland-1", "display-0"),
    (nil, "", "headless"),
  ])
  func withoutAnXDisplayTheNameComesFromTheWaylandDisplay(
    display: String?, wayland: String, name: String
  ) {
    #expect(SocketPath.socketName(forDisplay: display, wayland: wayland) == name)
    let environment = ["WAYLAND_DISPLAY": wayland, "XDG_RUNTIME_DIR": "/run/user/1"].merging(
      display.map { ["DISPLAY": $0] } ?? [:]
    ) { $1 }
    #expect(SocketPath.resolve(environment: environment, uid: 1).fileName == name + ".sock")
  }

  @Test func runtimeDirectoryHoldsTheFerryDirectory() {
    let location = SocketPath.resolve(
      environment: ["XDG_RUNTIME_DIR": "/run/user/1000", "DISPLAY": ":0"], uid: 1000)
    #expect(location.path == "/run/user/1000/ferry/display-0.sock")
    #expect(location.directory == "/run/user/1000/ferry")
  }

  @Test func withoutARuntimeDirectoryTheSocketIsInAPerUserTmpDirectory() {
    let location = SocketPath.resolve(environment: [:], uid: 1234)
    #expect(location.path == "/tmp/ferry-1234/headless.sock")
  }

  @Test func ferrySocketNamesTheSocketOutright() {
    let location = SocketPath.resolve(
      environment: ["FERRY_SOCKET": "/tmp/x/broker.sock", "XDG_RUNTIME_DIR": "/run/user/1"], uid: 1)
    #expect(location.directory == "/tmp/x")
    #expect(location.fileName == "broker.sock")
  }

  @Test func aMissingDirectoryIsCreatedWithMode0700WhateverTheUmask() throws {
    let root = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let location = SocketPath(directory: root + "/ferry", fileName: "s.sock")
    let old = umask(0o022)
    defer { umask(old) }
    try location.prepareDirectory()
    var info = stat()
    #expect(lstat(location.directory, &info) == 0)
    #expect(info.st_mode & 0o777 == 0o700)
    #expect(info.st_uid == getuid())
  }

  @Test(arguments: [0o755, 0o750, 0o701, 0o707])
  func aDirectoryOpenToOthersIsRefused(mode: Int) throws {
    let root = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let directory = root + "/ferry"
    #expect(mkdir(directory, 0o700) == 0)
    #expect(chmod(directory, mode_t(mode)) == 0)
    let location = SocketPath(directory: directory, fileName: "s.sock")
    #expect(throws: SocketPathError.accessibleByOthers(directory, mode: mode_t(mode))) {
      try location.prepareDirectory()
    }
    #expect(throws: SocketPathError.accessibleByOthers(directory, mode: mode_t(mode))) {
      try location.checkDirectory()
    }
  }

  /// Tests cannot chown a directory to another user; the check takes the expected owner, so
  /// a directory of ours stands in for one of someone else.
  @Test func aDirectoryOfAnotherUserIsRefused() throws {
    let root = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let location = SocketPath(directory: root, fileName: "s.sock")
    let someoneElse = getuid() &+ 1
    #expect(throws: SocketPathError.ownedByAnotherUser(root, owner: getuid())) {
      try location.checkDirectory(ownerUID: someoneElse)
    }
    #expect(throws: SocketPathError.ownedByAnotherUser(root, owner: getuid())) {
      try location.prepareDirectory(ownerUID: someoneElse)
    }
  }

  @Test func aSymbolicLinkInPlaceOfTheDirectoryIsRefused() throws {
    let root = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: root) }
    #expect(mkdir(root + "/real", 0o700) == 0)
    #expect(symlink(root + "/real", root + "/ferry") == 0)
    let location = SocketPath(directory: root + "/ferry", fileName: "s.sock")
    #expect(throws: SocketPathError.notADirectory(root + "/ferry")) {
      try location.prepareDirectory()
    }
  }

  @Test func aPathTooLongForTheKernelIsRefused() {
    let location = SocketPath(
      directory: "/tmp/" + String(repeating: "d", count: 100), fileName: "s.sock")
    #expect(throws: SocketPathError.pathTooLong(location.path, limit: 107)) {
      try location.checkDirectory()
    }
  }

  @Test func theServerRefusesADirectoryOpenToOthers() async throws {
    let root = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: root) }
    #expect(chmod(root, 0o755) == 0)
    let location = SocketPath(directory: root, fileName: "s.sock")
    await #expect(throws: SocketPathError.accessibleByOthers(root, mode: 0o755)) {
      _ = try await BrokerSocketServer.bind(.init(location: location, spoolParent: root + "-spool"))
    }
    var info = stat()
    #expect(lstat(location.path, &info) != 0, "no socket was made")
  }

  @Test func theClientRefusesADirectoryOpenToOthersAndSaysWhy() async throws {
    let root = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: root) }
    #expect(chmod(root, 0o777) == 0)
    let location = SocketPath(directory: root, fileName: "s.sock")
    let error = try await DetachedThread.run { () -> BrokerClientError? in
      do {
        _ = try BrokerClient.connect(to: location, timeout: .seconds(2))
        return nil
      } catch { return error as? BrokerClientError }
    }
    #expect(error?.code == .unsafeSocket)
    #expect(
      error.map(ExitStatus.init) == .io,
      "another user's broker or socket is an I/O failure, not bad input")
    #expect(error?.message.contains("mode 777") == true, "\(String(describing: error))")
  }

  @Test func withoutABrokerTheClientSaysSoWithExitStatus3() async throws {
    let root = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: root) }
    #expect(chmod(root, 0o700) == 0)
    for location in [
      SocketPath(directory: root, fileName: "none.sock"),
      SocketPath(directory: root + "/missing", fileName: "none.sock"),
    ] {
      let error = try await DetachedThread.run { () -> BrokerClientError? in
        do {
          _ = try BrokerClient.connect(to: location, timeout: .seconds(2))
          return nil
        } catch { return error as? BrokerClientError }
      }
      #expect(error?.code == .noBroker, "\(String(describing: error))")
      #expect(error.map(ExitStatus.init) == .noDisplayNoBroker)
    }
  }

  @Test func theSocketIs0600InADirectoryOf0700() async throws {
    try await SocketFixture.with { fixture in
      var info = stat()
      #expect(lstat(fixture.location.path, &info) == 0)
      #expect(info.st_mode & S_IFMT == S_IFSOCK)
      #expect(info.st_mode & 0o777 == 0o600)
      #expect(lstat(fixture.location.directory, &info) == 0)
      #expect(info.st_mode & 0o777 == 0o700)
    }
  }

  @Test func aStaleSocketIsReplacedAndALiveOneIsNot() async throws {
    let root = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: root) }
    #expect(chmod(root, 0o700) == 0)
    let location = SocketPath(directory: root, fileName: "s.sock")
    // A socket file nobody listens on: what a crashed broker leaves.
    let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    let bound = withUnixAddress(location.path) { bind(stale, $0, $1) }
    #expect(bound == 0)
    close(stale)

    // A registry of its own: binding points its converters' spool into `root`, which goes
    // with the test, and the shared registry serves every other test of the process.
    let configuration = BrokerSocketServer.Configuration(
      location: location, converters: ConverterRegistry(), spoolParent: root + "/spool")
    let server = try await BrokerSocketServer.bind(configuration)
    let serving = Task { try await server.serve() }
    let answered = try await DetachedThread.run {
      try BrokerClient.connect(to: location).status().pid
    }
    #expect(answered == getpid())

    await #expect(throws: BrokerSocketServerError.alreadyRunning(location.path)) {
      _ = try await BrokerSocketServer.bind(configuration)
    }
    serving.cancel()
    _ = try? await serving.value
    var info = stat()
    #expect(lstat(location.path, &info) != 0, "the socket file goes with the server")
  }

  @Test func aFileThatIsNotASocketIsLeftAlone() async throws {
    let root = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: root) }
    #expect(chmod(root, 0o700) == 0)
    let location = SocketPath(directory: root, fileName: "s.sock")
    #expect(FileManager.default.createFile(atPath: location.path, contents: Data("keep".utf8)))
    await #expect(throws: BrokerSocketServerError.notASocket(location.path)) {
      _ = try await BrokerSocketServer.bind(.init(location: location, spoolParent: root + "/spool"))
    }
    #expect(FileManager.default.contents(atPath: location.path) == Data("keep".utf8))
  }
}
