import Foundation
import Testing
import UniformTypeIdentifiers

@testable import Pasteboard

/// Declaration files: both kinds of conversion, and every way a file or an entry can be wrong.
@Suite(.timeLimit(.minutes(1))) struct ConverterDeclarationTests {
  let builtInCount = ConverterRegistry.builtIn.count

  /// Registers `conversions` with a fresh JSON type `identifier` declared beside them.
  func register(
    _ conversions: [Any], declaring identifier: String, in scratch: ConverterScratch,
    into registry: ConverterRegistry = ConverterRegistry()
  ) throws -> (ConverterRegistry, [UTType.DeclarationDiagnostic], path: String) {
    var object = exportedJSONType(identifier)
    object["FerryConversions"] = conversions
    let path = try scratch.declarations(object)
    let problems = try registry.registerDeclarations(from: path, allowingExampleNamespace: true)
    return (registry, problems, path)
  }

  // MARK: Both kinds

  @Test func jsonFieldAndCommandConversionsRegisterFromOneFile() async throws {
    let scratch = try ConverterScratch()
    defer { scratch.remove() }
    let identifier = freshExampleIdentifier()
    let (registry, problems, _) = try register(
      [
        ["from": identifier, "to": "public.utf8-plain-text", "jsonField": "members.1.name"],
        ["from": identifier, "to": "public.html", "command": ["tr", "a-z", "A-Z"]],
      ], declaring: identifier, in: scratch)
    #expect(problems.isEmpty, "\(problems)")
    let declared = registry.converters.dropFirst(builtInCount).compactMap {
      ($0 as? DeclaredConverter)?.base
    }
    #expect(declared.count == 2)
    #expect(declared.first is JSONFieldConverter && declared.last is CommandConverter)

    let card = try #require(UTType(identifier))
    let json = #"{"members": [{"name": "ada"}, {"name": "grace"}]}"#
    let board = declarationPasteboard(registry, holding: Data(json.utf8), as: card)
    #expect(Array(board.types.prefix(4)) == [card, .utf8PlainText, .html, .latin1PlainText])
    #expect(utf8Text(try await board.data(for: .utf8PlainText)) == "grace")
    #expect(
      utf8Text(try await board.data(for: .html))
        == #"{"MEMBERS": [{"NAME": "ADA"}, {"NAME": "GRACE"}]}"#)
  }

  @Test func conversionsBetweenKnownTypesNeedNoTypeDeclarations() async throws {
    let scratch = try ConverterScratch()
    defer { scratch.remove() }
    let path = try scratch.declarations([
      "FerryConversions": [["from": "public.json", "to": "public.html", "jsonField": "body"]]
    ])
    let registry = ConverterRegistry()
    #expect(try registry.registerDeclarations(from: path).isEmpty)
    let board = declarationPasteboard(
      registry, holding: Data(#"{"body": "<p>hi</p>"}"#.utf8), as: .json)
    #expect(utf8Text(try await board.data(for: .html)) == "<p>hi</p>")
  }

  @Test func propertyListFileWorksLikeJSON() async throws {
    let scratch = try ConverterScratch()
    defer { scratch.remove() }
    let identifier = freshExampleIdentifier()
    let path = try scratch.write(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0"><dict>
        <key>UTExportedTypeDeclarations</key><array><dict>
          <key>UTTypeIdentifier</key><string>\(identifier)</string>
          <key>UTTypeConformsTo</key><array><string>public.json</string></array>
        </dict></array>
        <key>FerryConversions</key><array>
          <dict><key>from</key><string>\(identifier)</string>
            <key>to</key><string>public.utf8-plain-text</string>
            <key>jsonField</key><string>name</string></dict>
          <dict><key>from</key><string>\(identifier)</string>
            <key>to</key><string>public.html</string>
            <key>command</key><array><string>rev</string></array>
            <key>timeoutSeconds</key><real>2.5</real>
            <key>maxOutputBytes</key><integer>100</integer></dict>
        </array>
      </dict></plist>
      """, to: "types.plist")
    let registry = ConverterRegistry()
    let problems = try registry.registerDeclarations(from: path, allowingExampleNamespace: true)
    #expect(problems.isEmpty, "\(problems)")
    let commands = registry.converters.compactMap {
      ($0 as? DeclaredConverter)?.base as? CommandConverter
    }
    let command = try #require(commands.first)
    #expect(command.timeLimit == .milliseconds(2500) && command.maximumOutputBytes == 100)
    let board = declarationPasteboard(
      registry, holding: Data(#"{"name": "plist"}"#.utf8), as: try #require(UTType(identifier)))
    #expect(utf8Text(try await board.data(for: .utf8PlainText)) == "plist")
    #expect(utf8Text(try await board.data(for: .html)) == #"}"tsilp" :"eman"{"#)
  }

  @Test func relativeProgramIsFoundBesideTheFile() async throws {
    let scratch = try ConverterScratch()
    defer { scratch.remove() }
    try FileManager.default.createDirectory(
      at: scratch.directory.appendingPathComponent("bin"), withIntermediateDirectories: true)
    try scratch.write("#!/bin/sh\nexec tr a-z A-Z\n", to: "bin/upper", executable: true)
    let identifier = freshExampleIdentifier()
    let (registry, problems, _) = try register(
      [["from": identifier, "to": "public.html", "command": ["./bin/upper"]]],
      declaring: identifier, in: scratch)
    #expect(problems.isEmpty, "\(problems)")
    let board = declarationPasteboard(
      registry, holding: Data("shout".utf8), as: try #require(UTType(identifier)))
    #expect(utf8Text(try await board.data(for: .html)) == "SHOUT")
  }

  // MARK: Limits through a pasteboard

  @Test func hangingCommandFailsTheRequestAfterItsTimeout() async throws {
    let scratch = try ConverterScratch()
    defer { scratch.remove() }
    let identifier = freshExampleIdentifier()
    let (registry, problems, _) = try register(
      [
        [
          "from": identifier, "to": "public.html", "command": ["/bin/sleep", "30"],
          "timeoutSeconds": 0.5,
        ]
      ],
      declaring: identifier, in: scratch)
    #expect(problems.isEmpty, "\(problems)")
    let board = declarationPasteboard(
      registry, holding: Data("{}".utf8), as: try #require(UTType(identifier)))
    let start = ContinuousClock.now
    // Ended by the timeout (the message says so), not by the program's 30 s.
    let error = await #expect(throws: PasteboardError.self) { try await board.data(for: .html) }
    #expect(ContinuousClock.now - start >= .milliseconds(500), "never before its timeout")
    #expect(
      error?.description
        == "converting \(identifier) to public.html failed: /bin/sleep ran longer than 0.5 s and was killed"
    )
  }

  @Test func chattyCommandFailsTheRequestPastItsOutputLimit() async throws {
    let scratch = try ConverterScratch()
    defer { scratch.remove() }
    let identifier = freshExampleIdentifier()
    let (registry, problems, _) = try register(
      [["from": identifier, "to": "public.html", "command": ["yes"], "maxOutputBytes": 1000]],
      declaring: identifier, in: scratch)
    #expect(problems.isEmpty, "\(problems)")
    let board = declarationPasteboard(
      registry, holding: Data("{}".utf8), as: try #require(UTType(identifier)))
    let error = await #expect(throws: PasteboardError.self) { try await board.data(for: .html) }
    #expect(error?.description.hasSuffix("printed more than 1000 bytes and was killed") == true)
  }

  @Test func failingCommandFailsTheRequestWithItsMessage() async throws {
    let scratch = try ConverterScratch()
    defer { scratch.remove() }
    let identifier = freshExampleIdentifier()
    let (registry, _, _) = try register(
      [
        [
          "from": identifier, "to": "public.html",
          "command": ["/bin/sh", "-c", "echo 'no template' >&2; exit 2"],
        ]
      ],
      declaring: identifier, in: scratch)
    let board = declarationPasteboard(
      registry, holding: Data("{}".utf8), as: try #require(UTType(identifier)))
    let error = await #expect(throws: PasteboardError.self) { try await board.data(for: .html) }
    #expect(
      error?.description
        == "converting \(identifier) to public.html failed: /bin/sh exited with status 2: no template"
    )
  }

  // MARK: Bad entries

  /// A bad entry (with `T` for the file's type), and what its problem says.
  static let badEntries: [(String, String)] = [
    (#"{"to": "public.utf8-plain-text", "jsonField": "name"}"#, "no 'from' type"),
    (#"{"from": "T", "jsonField": "name"}"#, "no 'to' type"),
    (
      #"{"from": 7, "to": "public.html", "jsonField": "name"}"#,
      "'from' is not a type identifier string"
    ),
    (
      #"{"from": "T", "to": "public.html", "jsonField": "name", "command": ["rev"]}"#,
      "has both 'jsonField' and 'command'; give one"
    ),
    (#"{"from": "T", "to": "public.html"}"#, "has neither 'jsonField' nor 'command'; give one"),
    (
      #"{"from": "com.example.nobody-declares-this", "to": "public.html", "jsonField": "a"}"#,
      "'from': unknown type 'com.example.nobody-declares-this'"
    ),
    (#"{"from": "T", "to": "org.example.no-such-type", "jsonField": "a"}"#, "'to': unknown type"),
    (#"{"from": "T", "to": "T", "jsonField": "a"}"#, "'from' and 'to' are the same type"),
    (
      #"{"from": "T", "to": "public.html", "command": ["./missing.sh"]}"#,
      "command: './missing.sh' (relative to the file: "
    ),
    (
      #"{"from": "T", "to": "public.html", "command": ["no-such-program-for-ferry", "-x"]}"#,
      "command: cannot find the program 'no-such-program-for-ferry' in PATH"
    ),
    (
      #"{"from": "T", "to": "public.html", "command": ["/nonexistent/tool"]}"#,
      "command: '/nonexistent/tool' is not an executable file"
    ),
    (#"{"from": "T", "to": "public.html", "command": []}"#, "'command' is not a non-empty array"),
    (
      #"{"from": "T", "to": "public.html", "command": "tr a-z A-Z"}"#,
      "'command' is not a non-empty array"
    ),
    (
      #"{"from": "T", "to": "public.html", "command": ["rev", 1]}"#,
      "'command' is not a non-empty array"
    ),
    (#"{"from": "T", "to": "public.html", "jsonField": 3}"#, "'jsonField' is not a string"),
    (
      #"{"from": "T", "to": "public.html", "jsonField": "a..b"}"#,
      "jsonField: 'a..b' is not a field path"
    ),
    (
      #"{"from": "T", "to": "public.html", "jsonField": "a", "timeoutSeconds": 1}"#,
      "'timeoutSeconds' applies to a 'command', not to a 'jsonField'"
    ),
    (
      #"{"from": "T", "to": "public.html", "command": ["rev"], "timeoutSeconds": 0}"#,
      "'timeoutSeconds' is not a positive number"
    ),
    (
      #"{"from": "T", "to": "public.html", "command": ["rev"], "timeoutSeconds": "5"}"#,
      "'timeoutSeconds' is not a positive number"
    ),
    (
      #"{"from": "T", "to": "public.html", "command": ["rev"], "timeoutSeconds": true}"#,
      "'timeoutSeconds' is not a positive number"
    ),
    (
      #"{"from": "T", "to": "public.html", "command": ["rev"], "maxOutputBytes": 1.5}"#,
      "'maxOutputBytes' is not a positive integer"
    ),
    (
      #"{"from": "T", "to": "public.html", "command": ["rev"], "maxOutputBytes": -1}"#,
      "'maxOutputBytes' is not a positive integer"
    ),
    (
      #"{"from": "T", "to": "public.html", "command": ["rev"], "timeout": 5}"#,
      "unknown key 'timeout' (an entry has command, from, jsonField, maxOutputBytes, timeoutSeconds, to)"
    ),
    (#""com.example.x -> public.html""#, "is not a dictionary"),
  ]

  @Test(arguments: badEntries)
  func badEntryIsOneProblemAndTheGoodOneStillRegisters(entry: String, problem: String) async throws
  {
    let scratch = try ConverterScratch()
    defer { scratch.remove() }
    let identifier = freshExampleIdentifier()
    let bad = try JSONSerialization.jsonObject(
      with: Data(entry.replacingOccurrences(of: #""T""#, with: "\"\(identifier)\"").utf8),
      options: .fragmentsAllowed)
    let good: [String: Any] = [
      "from": identifier, "to": "public.utf8-plain-text", "jsonField": "name",
    ]
    let (registry, problems, path) = try register([bad, good], declaring: identifier, in: scratch)

    try #require(problems.count == 1, "\(problems)")
    #expect(problems[0].file == path)
    #expect(problems[0].entry?.hasPrefix("FerryConversions[0]") == true)
    #expect(problems[0].description.hasPrefix("\(path): FerryConversions[0]"))
    #expect(problems[0].description.contains(problem), "\(problems[0])")
    #expect(registry.converters.count == builtInCount + 1)
    let board = declarationPasteboard(
      registry, holding: Data(#"{"name": "still works"}"#.utf8),
      as: try #require(UTType(identifier)))
    #expect(utf8Text(try await board.data(for: .utf8PlainText)) == "still works")
  }

  @Test func eachBadEntryIsNamedByItsIndex() throws {
    let scratch = try ConverterScratch()
    defer { scratch.remove() }
    let identifier = freshExampleIdentifier()
    let (registry, problems, path) = try register(
      [
        ["from": identifier, "to": "public.utf8-plain-text", "jsonField": "name"],
        ["to": "public.html", "jsonField": "name"],
        ["from": identifier, "to": "public.html", "command": ["rev"]],
        ["from": identifier, "to": "public.rtf", "jsonField": "a", "command": ["rev"]],
      ], declaring: identifier, in: scratch)
    #expect(
      problems.map(\.description) == [
        "\(path): FerryConversions[1]: no 'from' type",
        "\(path): FerryConversions[3] (\(identifier) → public.rtf): has both 'jsonField' and "
          + "'command'; give one",
      ])
    #expect(registry.converters.count == builtInCount + 2)
  }

  @Test func typeDeclarationProblemsAreReturnedToo() throws {
    let scratch = try ConverterScratch()
    defer { scratch.remove() }
    let identifier = freshExampleIdentifier()
    var object = exportedJSONType(identifier)
    object["FerryConversions"] = [["from": identifier, "to": "public.html", "jsonField": "a"]]
    let path = try scratch.declarations(object)
    // Without the example namespace, the type is refused, and so is its conversion.
    let registry = ConverterRegistry()
    let problems = try registry.registerDeclarations(from: path)
    #expect(problems.count == 2, "\(problems)")
    #expect(
      problems.first?.problem
        == .reservedNamespace(identifier: identifier, namespace: "com.example"))
    #expect(problems.last?.entry == "FerryConversions[0] (\(identifier) → public.html)")
    #expect(registry.converters.count == builtInCount)
  }

  // MARK: Bad files

  @Test(arguments: [
    ("{ \"FerryConversions\": [", "bad JSON: "),
    ("this is not a declaration file", "bad property list: "),
    ("", "bad property list: "),
    ("[1, 2]", "the top level is not a dictionary"),
    (#"{"FerryConversions": {"from": "public.json"}}"#, "FerryConversions is not an array"),
    (#"{"UTExportedTypeDeclarations": []}"#, "no FerryConversions array"),
  ])
  func malformedFileThrowsAndRegistersNothing(contents: String, reason: String) throws {
    let scratch = try ConverterScratch()
    defer { scratch.remove() }
    let path = try scratch.write(contents, to: "bad.json")
    let registry = ConverterRegistry()
    let error = #expect(throws: PasteboardError.self) {
      try registry.registerDeclarations(from: path)
    }
    guard case .invalidConverterDeclaration(let errorPath, let errorReason)? = error else {
      Issue.record("expected invalidConverterDeclaration, got \(String(describing: error))")
      return
    }
    #expect(errorPath == path)
    #expect(errorReason.hasPrefix(reason), "\(errorReason)")
    #expect(error?.description.hasPrefix("\(path): \(reason)") == true)
    #expect(registry.converters.count == builtInCount)
  }

  @Test func malformedConversionsSectionDeclaresNoTypes() throws {
    let scratch = try ConverterScratch()
    defer { scratch.remove() }
    let identifier = freshExampleIdentifier()
    var object = exportedJSONType(identifier)
    object["FerryConversions"] = "not a list"
    let path = try scratch.declarations(object)
    #expect(throws: PasteboardError.self) {
      try ConverterRegistry().registerDeclarations(from: path, allowingExampleNamespace: true)
    }
    #expect(UTType(identifier) == nil)
  }

  @Test func missingFileThrows() {
    let path = "/nonexistent/ferry/declarations.json"
    let error = #expect(throws: PasteboardError.self) {
      try ConverterRegistry().registerDeclarations(from: path)
    }
    #expect(error?.description.hasPrefix("\(path): cannot read the file") == true)
  }

  // MARK: Registering again

  @Test func registeringAFileAgainReplacesItsConverters() async throws {
    let scratch = try ConverterScratch()
    defer { scratch.remove() }
    let identifier = freshExampleIdentifier()
    let registry = ConverterRegistry()
    let other = try JSONFieldConverter(from: .json, to: .rtf, fieldPath: "x")
    registry.register(other)
    _ = try register(
      [["from": identifier, "to": "public.utf8-plain-text", "jsonField": "name"]],
      declaring: identifier, in: scratch, into: registry)
    registry.register(try JSONFieldConverter(from: .json, to: .xml, fieldPath: "x"))
    #expect(registry.converters.count == builtInCount + 3)

    // Edited, and registered again under another spelling of its path.
    var object = exportedJSONType(identifier)
    object["FerryConversions"] = [
      ["from": identifier, "to": "public.utf8-plain-text", "jsonField": "bio"]
    ]
    let path = try scratch.declarations(object)
    let respelt = scratch.directory.appendingPathComponent(".").path + "/declarations.json"
    #expect(respelt != path)
    #expect(
      try registry.registerDeclarations(from: respelt, allowingExampleNamespace: true).isEmpty)
    let declared = registry.converters.dropFirst(builtInCount).map { $0 as? DeclaredConverter }
    #expect(declared.count == 3)
    #expect(declared[0] == nil && declared[1] != nil && declared[2] == nil)

    let json = Data(#"{"name": "Ada", "bio": "Analyst"}"#.utf8)
    let board = declarationPasteboard(registry, holding: json, as: try #require(UTType(identifier)))
    #expect(utf8Text(try await board.data(for: .utf8PlainText)) == "Analyst")
  }
}
