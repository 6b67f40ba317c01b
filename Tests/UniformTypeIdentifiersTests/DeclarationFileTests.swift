import Foundation
import Testing

@testable import UniformTypeIdentifiers

@Suite("Declaration files")
struct DeclarationFileTests {
  @Test func jsonDeclarationLoads() throws {
    try withTemporaryDirectory { directory in
      let path = try write(
        """
        {
          "UTExportedTypeDeclarations": [
            {
              "UTTypeIdentifier": "org.ferrytests.json.profile",
              "UTTypeConformsTo": ["public.json"],
              "UTTypeDescription": "Ferry test profile",
              "UTTypeReferenceURL": "https://ferry.example.org/spec/profile",
              "UTTypeVersion": 3,
              "UTTypeTagSpecification": {
                "public.filename-extension": ["ftprofile", "ftprof"],
                "public.mime-type": "application/x-ferrytests-profile"
              }
            }
          ]
        }
        """, to: "profile.json", in: directory)
      #expect(UTType.loadDeclarations(from: path).isEmpty)

      let type = try #require(UTType("org.ferrytests.json.profile"))
      #expect(type.isDeclared && !type.isDynamic && !type.isPublic)
      #expect(type.conforms(to: .json) && type.conforms(to: .text) && type.conforms(to: .data))
      #expect(type._parents == [.json])
      #expect(type.localizedDescription == "Ferry test profile")
      #expect(type.referenceURL == URL(string: "https://ferry.example.org/spec/profile"))
      #expect(type.version == 3)
      #expect(type.tags[.filenameExtension] == ["ftprofile", "ftprof"])
      #expect(type.tags[.mimeType] == ["application/x-ferrytests-profile"])
      #expect(type.preferredFilenameExtension == "ftprofile")
      #expect(type.preferredMIMEType == "application/x-ferrytests-profile")
      #expect(UTType(filenameExtension: "ftprof") == type)
      #expect(UTType(filenameExtension: "FTPROFILE") == type)
      #expect(UTType(mimeType: "Application/X-FerryTests-Profile") == type)
      #expect(UTType(filenameExtension: "ftprofile", conformingTo: .image)?.isDynamic == true)
      #expect(type._declarationSource == "exported declaration file")
    }
  }

  @Test func xmlPropertyListLoads() throws {
    try withTemporaryDirectory { directory in
      let path = try write(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
          <key>UTImportedTypeDeclarations</key>
          <array>
            <dict>
              <key>UTTypeIdentifier</key>
              <string>org.ferrytests.plist.markdown</string>
              <key>UTTypeConformsTo</key>
              <string>public.plain-text</string>
              <key>UTTypeDescription</key>
              <string>Ferry test Markdown</string>
              <key>UTTypeReferenceURL</key>
              <string>https://ferry.example.org/markdown</string>
              <key>UTTypeVersion</key>
              <string>7</string>
              <key>UTTypeTagSpecification</key>
              <dict>
                <key>public.filename-extension</key>
                <array>
                  <string>ftmd</string>
                  <string>ftmarkdown</string>
                </array>
                <key>public.mime-type</key>
                <string>text/x-ferrytests-markdown</string>
              </dict>
            </dict>
          </array>
        </dict>
        </plist>
        """, to: "markdown.plist", in: directory)
      #expect(UTType.loadDeclarations(from: path).isEmpty)

      let type = try #require(UTType("org.ferrytests.plist.markdown"))
      #expect(type.conforms(to: .plainText))
      #expect(type.localizedDescription == "Ferry test Markdown")
      #expect(type.referenceURL?.absoluteString == "https://ferry.example.org/markdown")
      #expect(type.version == 7)
      #expect(type.tags[.filenameExtension] == ["ftmd", "ftmarkdown"])
      #expect(type.tags[.mimeType] == ["text/x-ferrytests-markdown"])
      #expect(UTType(filenameExtension: "ftmarkdown") == type)
      #expect(type._declarationSource == "imported declaration file")
    }
  }

  @Test func binaryPropertyListLoads() throws {
    try withTemporaryDirectory { directory in
      let root: [String: Any] = [
        "UTExportedTypeDeclarations": [
          [
            "UTTypeIdentifier": "org.ferrytests.binary.thing",
            "UTTypeConformsTo": ["public.image"],
            "UTTypeTagSpecification": ["public.filename-extension": "ftbinthing"],
            "UTTypeVersion": 12,
          ] as [String: Any]
        ]
      ]
      let data = try PropertyListSerialization.data(
        fromPropertyList: root, format: .binary, options: 0)
      let path = directory + "/thing.plist"
      try data.write(to: URL(fileURLWithPath: path))
      #expect(UTType.loadDeclarations(from: path).isEmpty)
      let type = try #require(UTType("org.ferrytests.binary.thing"))
      #expect(type.conforms(to: .image))
      #expect(type.version == 12)
      #expect(type.preferredFilenameExtension == "ftbinthing")
    }
  }

  @Test func declaredX11TargetsAndOtherTagClasses() throws {
    try withTemporaryDirectory { directory in
      let path = try write(
        """
        {"UTExportedTypeDeclarations": [{
          "UTTypeIdentifier": "org.ferrytests.x11.declared",
          "UTTypeConformsTo": "public.utf8-plain-text",
          "UTTypeTagSpecification": {
            "org.x.selection-target": ["_FERRYTESTS_TARGET", "_FERRYTESTS_OTHER", "UTF8_STRING"],
            "com.apple.ostype": "FTst"
          }
        }]}
        """, to: "x11.json", in: directory)
      #expect(UTType.loadDeclarations(from: path).isEmpty)
      let type = try #require(UTType("org.ferrytests.x11.declared"))
      #expect(type._parents == [.utf8PlainText])
      #expect(type.tags[.x11Target] == ["_FERRYTESTS_TARGET", "_FERRYTESTS_OTHER", "UTF8_STRING"])
      #expect(type.tags[UTTagClass(rawValue: "com.apple.ostype")] == ["FTst"])
      #expect(UTType(tag: "_FERRYTESTS_OTHER", tagClass: .x11Target, conformingTo: .text) == type)
      #expect(
        UTType(tag: "FTst", tagClass: UTTagClass(rawValue: "com.apple.ostype"), conformingTo: nil)
          == type)
      // A declaration cannot take a built-in target.
      #expect(UTType(tag: "UTF8_STRING", tagClass: .x11Target, conformingTo: nil) == .utf8PlainText)
    }
  }

  @Test func typesWithoutOptionalKeys() throws {
    try withTemporaryDirectory { directory in
      let path = try write(
        #"{"UTExportedTypeDeclarations": [{"UTTypeIdentifier": "org.ferrytests.bare.type"}]}"#,
        to: "bare.json", in: directory)
      #expect(UTType.loadDeclarations(from: path).isEmpty)
      let type = try #require(UTType("org.ferrytests.bare.type"))
      #expect(type.isDeclared)
      #expect(type.referenceURL == nil)
      #expect(type.version == nil)
      #expect(type.localizedDescription == nil)
      #expect(type.preferredFilenameExtension == nil)
      #expect(type.preferredMIMEType == nil)
      #expect(type.tags.isEmpty)
      #expect(type.supertypes.isEmpty)
    }
  }

  @Test func directoryLoadsEveryDeclarationFile() throws {
    try withTemporaryDirectory { directory in
      try write(
        try declarationJSON(exported: [entry("org.ferrytests.dir.one", extensions: ["ftdirone"])]),
        to: "one.json", in: directory)
      try write(
        try declarationJSON(exported: [
          entry("org.ferrytests.dir.two", conformsTo: ["org.ferrytests.dir.one"])
        ]),
        to: "two.json", in: directory)
      try write("not a declaration", to: "notes.txt", in: directory)
      #expect(UTType.loadDeclarations(from: directory).isEmpty)
      let two = try #require(UTType("org.ferrytests.dir.two"))
      let one = try #require(UTType("org.ferrytests.dir.one"))
      #expect(two.conforms(to: one))
      #expect(two.conforms(to: .data))
    }
  }

  @Test func reloadingAFileReplacesWhatItDeclared() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/reload.json"
      try write(
        try declarationJSON(exported: [
          entry("org.ferrytests.reload.kept", description: "before"),
          entry("org.ferrytests.reload.dropped", extensions: ["ftreloaddropped"]),
        ]), to: "reload.json", in: directory)
      #expect(UTType.loadDeclarations(from: path).isEmpty)
      #expect(UTType("org.ferrytests.reload.kept")?.localizedDescription == "before")
      #expect(UTType("org.ferrytests.reload.dropped") != nil)

      try write(
        try declarationJSON(exported: [entry("org.ferrytests.reload.kept", description: "after")]),
        to: "reload.json", in: directory)
      #expect(UTType.loadDeclarations(from: path).isEmpty)
      #expect(UTType("org.ferrytests.reload.kept")?.localizedDescription == "after")
      #expect(UTType("org.ferrytests.reload.dropped") == nil)
      #expect(UTType(filenameExtension: "ftreloaddropped")?.isDynamic == true)
    }
  }

  @Test func searchPathDirectoriesLoadOnFirstLookup() throws {
    try withTemporaryDirectory { directory in
      try write(
        try declarationJSON(exported: [entry("org.ferrytests.search.user", description: "user's")]),
        to: "user/a.json", in: directory)
      try write(
        try declarationJSON(exported: [
          entry("org.ferrytests.search.user", description: "system's"),
          entry("org.ferrytests.search.system", extensions: ["ftsearch"]),
        ]), to: "system/a.json", in: directory)
      let registry = privateRegistry(
        declarationDirectories: [directory + "/user", directory + "/system"])
      // System lookups do not read the directories' files.
      #expect(registry.record("public.png") != nil)
      #expect(registry.state.withLock { !$0.searchPathLoaded })
      #expect(registry.record("org.ferrytests.search.user")?.description == "user's")
      #expect(
        registry.preferredIdentifier("ftsearch", .filenameExtension)
          == "org.ferrytests.search.system")
      #expect(registry.diagnostics.isEmpty)
    }
  }
}
