import FerryBroker
import FerryClient
import FerryCommandLine
import FerryProtocol
import FerryTestSupport
import Foundation
import Pasteboard
import Synchronization
import Testing
import UniformTypeIdentifiers

#if canImport(Glibc)
  import Glibc
#endif

/// The operations over a real Unix socket: an in-process server, the blocking client.
@Suite struct SocketRoundTripTests {
  static let profileJSON = Data(#"{"name": "Juan Chavez", "bio": "Ceramicist"}"#.utf8)

  @Test func threeRepresentationsGoInInOrderAndEachComesBackByteForByte() async throws {
    let png = Data(TestBytes.make(300_000, seed: 7))
    let html = Data("<b>Juan</b>".utf8)
    let text = Data("Juan".utf8)
    try await SocketFixture.with { fixture in
      let (count, state, readBack) = try await DetachedThread.run {
        let client = try fixture.client()
        let count = try client.write([
          .data(png, type: "public.png"), .data(html, type: "public.html"),
          .data(text, type: "public.utf8-plain-text"),
        ])
        let state = try client.types()
        var readBack: [String: Data] = [:]
        for type in ["public.png", "public.html", "public.utf8-plain-text"] {
          let (served, data) = try client.read(types: [type])
          readBack[served] = data
        }
        return (count, state, readBack)
      }
      #expect(count == 1)
      #expect(state.storedTypes == ["public.png", "public.html", "public.utf8-plain-text"])
      #expect(Array(state.types.prefix(3)) == state.storedTypes)
      #expect(state.changeCount == 1)
      #expect(!state.concealed)
      #expect(readBack["public.png"] == png)
      #expect(readBack["public.html"] == html)
      #expect(readBack["public.utf8-plain-text"] == text)
      // The broker's pasteboard holds the same item.
      #expect(
        fixture.pasteboard(.general).items.first?.storedTypes == [.png, .html, .utf8PlainText])
    }
  }

  @Test func aPreferenceListFallsToTheFirstTypeServed() async throws {
    try await SocketFixture.with { fixture in
      let (served, data) = try await DetachedThread.run {
        let client = try fixture.client()
        try client.write([.data(Data("plain".utf8), type: "public.utf8-plain-text")])
        return try client.read(types: ["public.png", "public.utf8-plain-text", "public.html"])
      }
      #expect(served == "public.utf8-plain-text")
      #expect(data == Data("plain".utf8))
    }
  }

  @Test func anEmptyPreferenceListGetsTheFirstStoredType() async throws {
    try await SocketFixture.with { fixture in
      let served = try await DetachedThread.run {
        let client = try fixture.client()
        try client.write([
          .data(Data("<i/>".utf8), type: "public.html"),
          .data(Data("i".utf8), type: "public.utf8-plain-text"),
        ])
        return try client.read(types: []).type
      }
      #expect(served == "public.html")
    }
  }

  @Test func aConversionIsServed_UTF8TextReadAsLatin1() async throws {
    try await SocketFixture.with { fixture in
      let (served, data) = try await DetachedThread.run {
        let client = try fixture.client()
        try client.write([.data(Data("café".utf8), type: "public.utf8-plain-text")])
        return try client.read(types: ["org.x.string"])
      }
      #expect(served == "org.x.string")
      #expect(Array(data) == [0x63, 0x61, 0x66, 0xE9])
    }
  }

  @Test func aConformingTypeServesASupertypeRequest() async throws {
    try await SocketFixture.with { fixture in
      let answer = try await DetachedThread.run {
        let client = try fixture.client()
        try client.write([.data(Data("t".utf8), type: "public.utf8-plain-text")])
        return try client.read(types: ["public.plain-text"])
      }
      #expect(answer.type == "public.utf8-plain-text")
      #expect(answer.data == Data("t".utf8))
    }
  }

  @Test func mimeTypesNameTypesToo() async throws {
    try await SocketFixture.with { fixture in
      let (served, state) = try await DetachedThread.run {
        let client = try fixture.client()
        try client.write([.data(Data("<p/>".utf8), type: "text/html")])
        return (try client.read(types: ["text/html"]).type, try client.types())
      }
      #expect(served == "public.html")
      #expect(state.storedTypes == ["public.html"])
    }
  }

  @Test func readingIntoADescriptorStreamsTheBytes() async throws {
    let bytes = Data(TestBytes.make(3 << 20 + 17, seed: 9))
    try await SocketFixture.with { fixture in
      let path = fixture.root + "/out"
      let served = try await DetachedThread.run { () -> String in
        let client = try fixture.client()
        try client.write([.data(bytes, type: "public.data")])
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { close(descriptor) }
        return try client.read(types: ["public.data"], into: descriptor)
      }
      #expect(served == "public.data")
      #expect(FileManager.default.contents(atPath: path) == bytes)
    }
  }

  @Test func aPipeliningClientSendsItsFirstCallBehindTheHello() async throws {
    try await SocketFixture.with { fixture in
      let (served, hello) = try await DetachedThread.run { () -> (String, HelloResponse) in
        try fixture.client().write([.data(Data("pipelined".utf8), type: "public.utf8-plain-text")])
        let client = try BrokerClient.connect(
          to: fixture.location, timeout: .seconds(60), pipelining: true)
        #expect(client.hello.version == 0, "the hello's answer is not read before the first call")
        let read = try client.read(types: ["public.utf8-plain-text"])
        #expect(read.data == Data("pipelined".utf8))
        return (read.type, client.hello)
      }
      #expect(served == "public.utf8-plain-text")
      #expect(hello.version == WireProtocol.version)
      #expect(hello.pid == getpid())
    }
  }

  @Test func anyPasteboardNameMakesAPasteboard() async throws {
    try await SocketFixture.with { fixture in
      let (scratch, general) = try await DetachedThread.run {
        let client = try fixture.client()
        try client.write([.data(Data("s".utf8), type: "public.utf8-plain-text")], to: "scratch")
        let scratch = try client.read(types: ["public.utf8-plain-text"], from: "scratch").data
        let general = try client.types(of: "general")
        return (scratch, general)
      }
      #expect(scratch == Data("s".utf8))
      #expect(general.storedTypes.isEmpty)
      #expect(fixture.pasteboard("scratch").changeCount == 1)
    }
  }

  @Test func clearEmptiesThePasteboardAndMovesItsChangeCount() async throws {
    try await SocketFixture.with { fixture in
      let (written, cleared, state, error) = try await DetachedThread.run {
        let client = try fixture.client()
        let written = try client.write([.data(Data("x".utf8), type: "public.utf8-plain-text")])
        let cleared = try client.clear()
        let state = try client.types()
        var failure: BrokerClientError?
        do { _ = try client.read(types: ["public.utf8-plain-text"]) } catch {
          failure = error as? BrokerClientError
        }
        return (written, cleared, state, failure)
      }
      #expect(cleared == written + 1)
      #expect(state.types.isEmpty)
      #expect(state.changeCount == cleared)
      #expect(error?.code == .empty)
      #expect(error.map(ExitStatus.init) == .nothingAvailable)
      #expect(error?.message == "the general pasteboard is empty")
    }
  }

  @Test func aTypeNotOfferedIsNotAvailableAndTheMessageSaysWhatIs() async throws {
    try await SocketFixture.with { fixture in
      let error = try await DetachedThread.run { () -> BrokerClientError? in
        let client = try fixture.client()
        try client.write([.data(Data("x".utf8), type: "public.utf8-plain-text")])
        do { _ = try client.read(types: ["public.png", "public.jpeg"]) } catch {
          return error as? BrokerClientError
        }
        return nil
      }
      #expect(error?.code == .notAvailable)
      #expect(error.map(ExitStatus.init) == .nothingAvailable)
      #expect(
        error?.message.hasPrefix(
          "none of public.png, public.jpeg is available (the item offers public.utf8-plain-text")
          == true, "\(String(describing: error))")
    }
  }

  @Test func anUnknownTypeIsRefusedAndTheConnectionGoesOn() async throws {
    try await SocketFixture.with { fixture in
      let (writeError, readError, state) = try await DetachedThread.run {
        let client = try fixture.client()
        var writeError: BrokerClientError?
        do {
          try client.write([
            .data(Data("a".utf8), type: "public.utf8-plain-text"),
            .data(Data(count: 3 << 20), type: "nobody_never.declared!"),
          ])
        } catch { writeError = error as? BrokerClientError }
        var readError: BrokerClientError?
        do { _ = try client.read(types: ["nobody_never.declared!"]) } catch {
          readError = error as? BrokerClientError
        }
        return (writeError, readError, try client.types())
      }
      #expect(writeError?.code == .unknownType)
      #expect(writeError.map(ExitStatus.init) == .usage)
      #expect(writeError?.message.contains("nobody_never.declared!") == true)
      #expect(readError?.code == .unknownType)
      #expect(state.changeCount == 0, "nothing was written")
    }
  }

  @Test func anExpiredItemIsNotServed() async throws {
    try await SocketFixture.with { fixture in
      let error = try await DetachedThread.run { () -> BrokerClientError? in
        let client = try fixture.client()
        try client.write(
          [.data(Data("old".utf8), type: "public.utf8-plain-text")],
          expires: Date().timeIntervalSince1970 - 1)
        do { _ = try client.read(types: ["public.utf8-plain-text"]) } catch {
          return error as? BrokerClientError
        }
        return nil
      }
      #expect(error?.code == .empty)
    }
  }

  @Test func registerTeachesTheBrokerTheProfileExample() async throws {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Examples/Declarations/profile.json").path
    let declaration: Data
    if let example = FileManager.default.contents(atPath: file) {
      declaration = example
    } else {
      declaration = Data(
        #"""
        { "UTExportedTypeDeclarations": [ { "UTTypeIdentifier": "com.example.profile",
            "UTTypeConformsTo": ["public.json"] } ],
          "FerryConversions": [ { "from": "com.example.profile", "to": "public.utf8-plain-text",
            "jsonField": "name" } ] }
        """#.utf8)
    }
    try await SocketFixture.with { fixture in
      let (problems, name, state) = try await DetachedThread.run {
        let client = try fixture.client()
        let problems = try client.register(
          declarationNamed: "profile.json", contents: declaration, allowExampleNamespace: true)
        try client.write([.data(Self.profileJSON, type: "com.example.profile")])
        let name = try client.read(types: ["public.utf8-plain-text"]).data
        return (problems, name, try client.types())
      }
      #expect(problems.isEmpty, "\(problems)")
      #expect(name == Data("Juan Chavez".utf8))
      #expect(state.types.prefix(2) == ["com.example.profile", "public.utf8-plain-text"])
    }
  }

  @Test func registerReportsProblemsByFileNameAndRefusesAFileThatIsNoDeclaration() async throws {
    let withProblem = Data(
      #"""
      { "FerryConversions": [ { "from": "public.json", "to": "public.utf8-plain-text" } ] }
      """#.utf8)
    try await SocketFixture.with { fixture in
      let (problems, error) = try await DetachedThread.run {
        let client = try fixture.client()
        let problems = try client.register(
          declarationNamed: "/home/me/broken.json", contents: withProblem)
        var failure: BrokerClientError?
        do {
          _ = try client.register(declarationNamed: "junk.json", contents: Data("not json".utf8))
        } catch { failure = error as? BrokerClientError }
        return (problems, failure)
      }
      #expect(problems.count == 1)
      #expect(problems.first?.hasPrefix("broken.json: ") == true, "\(problems)")
      #expect(error?.code == .invalidDeclaration)
      #expect(error?.message.hasPrefix("junk.json: ") == true, "\(String(describing: error))")
    }
  }

  @Test func statusReportsTheProcessAndThePasteboards() async throws {
    try await SocketFixture.with { fixture in
      let status = try await DetachedThread.run {
        let client = try fixture.client()
        try client.write([.data(Data("s".utf8), type: "public.utf8-plain-text")], to: "notes")
        return try client.status()
      }
      #expect(status.pid == getpid())
      #expect(status.protocolVersion == 1)
      #expect(status.display == nil)
      #expect(!status.x11Bridged)
      #expect(status.socket == fixture.location.path)
      #expect(status.uptime >= 0)
      #expect(status.pasteboards.map(\.pasteboard) == ["general", "primary", "notes"])
      #expect(status.pasteboards.last?.changeCount == 1)
      #expect(status.pasteboards.last?.storedTypes == ["public.utf8-plain-text"])
    }
  }

  @Test func statusAsksTheDaemonsProvider() async throws {
    struct Daemon: BrokerStatusProvider {
      func status() async -> BrokerStatus {
        BrokerStatus(
          version: "9.9", uptime: .seconds(90), display: ":3", x11Bridged: true,
          clipboardManager: true, pasteboards: [.general])
      }
    }
    try await SocketFixture.with({ $0.status = Daemon() }) { fixture in
      let status = try await DetachedThread.run { try fixture.client().status() }
      #expect(status.version == "9.9")
      #expect(status.uptime == 90)
      #expect(status.display == ":3")
      #expect(status.x11Bridged && status.clipboardManager)
      #expect(status.pasteboards.map(\.pasteboard) == ["general"])
    }
  }

  @Test func aDescriptorSourceIsStreamedToItsEnd() async throws {
    let bytes = Data(TestBytes.make(2 << 20 + 5, seed: 3))
    try await SocketFixture.with { fixture in
      let path = fixture.root + "/in"
      #expect(FileManager.default.createFile(atPath: path, contents: bytes))
      let back = try await DetachedThread.run { () -> Data in
        let client = try fixture.client()
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        try client.write([.init(type: "public.data", source: .fileDescriptor(descriptor))])
        return try client.read(types: ["public.data"]).data
      }
      #expect(back == bytes)
    }
  }

  @Test func anEmptyRepresentationIsAnEmptyItemNotAnEmptyPasteboard() async throws {
    try await SocketFixture.with { fixture in
      let answer = try await DetachedThread.run {
        let client = try fixture.client()
        try client.write([.data(Data(), type: "public.utf8-plain-text")])
        return try client.read(types: ["public.utf8-plain-text"])
      }
      #expect(answer.data.isEmpty)
    }
  }

  @Test func manyRequestsRunInOrderOnOneConnectionAndManyConnectionsAtOnce() async throws {
    try await SocketFixture.with { fixture in
      try await withThrowingTaskGroup(of: Void.self) { group in
        for worker in 0..<4 {
          group.addTask {
            try await DetachedThread.run {
              let client = try fixture.client()
              for round in 0..<10 {
                let text = Data("\(worker)-\(round)".utf8)
                try client.write([.data(text, type: "public.utf8-plain-text")], to: "w\(worker)")
                let back = try client.read(types: ["public.utf8-plain-text"], from: "w\(worker)")
                  .data
                #expect(back == text)
              }
            }
          }
        }
        try await group.waitForAll()
      }
      for worker in 0..<4 {
        #expect(fixture.pasteboard(Pasteboard.Name(rawValue: "w\(worker)")).changeCount == 10)
      }
    }
  }
}
