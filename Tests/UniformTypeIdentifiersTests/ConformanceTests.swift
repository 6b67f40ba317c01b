import Testing

@testable import UniformTypeIdentifiers

@Suite("Conformance")
struct ConformanceTests {
  @Test func jpegChainReachesItemAndContent() {
    let chain: [UTType] = [.jpeg, .image, .data, .item]
    for (index, type) in chain.enumerated() {
      for later in chain[index...] {
        #expect(type.conforms(to: later), "\(type) conforms to \(later)")
      }
      for earlier in chain[..<index] {
        #expect(!type.conforms(to: earlier), "\(type) does not conform to \(earlier)")
      }
    }
    // Multiple inheritance: public.image has two parents, public.data and public.content.
    #expect(UTType.image._parents.map(\.identifier) == ["public.data", "public.content"])
    #expect(UTType.image.conforms(to: .content))
    #expect(UTType.jpeg.conforms(to: .content))
    #expect(!UTType.content.conforms(to: .data))
    #expect(!UTType.content.conforms(to: .item))
    #expect(UTType.jpeg.supertypes == [.image, .data, .item, .content])
    #expect(UTType.item.supertypes.isEmpty)
  }

  @Test(arguments: [UTType.jpeg, .image, .data, .item, .plainText, .folder])
  func conformanceIsReflexiveAndStrictRelationsAreNot(_ type: UTType) {
    #expect(type.conforms(to: type))
    #expect(!type.isSubtype(of: type))
    #expect(!type.isSupertype(of: type))
    #expect(!type.supertypes.contains(type))
  }

  @Test func subtypeAndSupertypeAreStrictAndOpposite() {
    #expect(UTType.png.isSubtype(of: .image))
    #expect(!UTType.png.isSupertype(of: .image))
    #expect(UTType.image.isSupertype(of: .png))
    #expect(!UTType.image.isSubtype(of: .png))
    // Case does not make a different type.
    let shouting = UTType("PUBLIC.PNG")!
    #expect(!shouting.isSubtype(of: .png))
    #expect(!UTType.png.isSupertype(of: shouting))
    // Unrelated types are neither.
    #expect(!UTType.png.isSubtype(of: .text))
    #expect(!UTType.text.isSupertype(of: .png))
  }

  @Test func deepDiamondConformance() {
    // public.utf8-tab-separated-values-text reaches public.plain-text two ways.
    let tsv = UTType.utf8TabSeparatedText
    #expect(tsv.conforms(to: .tabSeparatedText))
    #expect(tsv.conforms(to: .utf8PlainText))
    #expect(tsv.conforms(to: .delimitedText))
    #expect(tsv.conforms(to: .plainText))
    #expect(tsv.conforms(to: .content))
    #expect(!tsv.conforms(to: .commaSeparatedText))
  }

  /// Conformances the reference notes because they differ from Apple's documentation.
  @Test func declarationsNotDocumentationDecideConformance() {
    #expect(UTType.svg.conforms(to: .text), "public.svg-image conforms to public.xml")
    #expect(UTType.javaScript.conforms(to: .plainText))
    #expect(UTType.javaScript.conforms(to: .executable))
    #expect(UTType.executable.supertypes.isEmpty, "public.executable declares no parent")
    #expect(UTType.diskImage.conforms(to: .archive))
    #expect(!UTType.mpeg4Audio.conforms(to: .mpeg4Movie))
    #expect(UTType.mpeg4Audio.conforms(to: .audio))
    #expect(!UTType.osaScriptBundle.conforms(to: .script))
    #expect(UTType.m3uPlaylist.conforms(to: .plainText))
    #expect(UTType.font.conforms(to: .data))
    #expect(UTType.log.conforms(to: .item) && !UTType.log.conforms(to: .data))
    #expect(UTType.ahap.conforms(to: .json) && UTType.ahap.conforms(to: .text))
    #expect(UTType.commaSeparatedText.conforms(to: .plainText))
    #expect(UTType.applicationBundle.conforms(to: .bundle))
    #expect(UTType.zip.conforms(to: .archive))
    #expect(UTType.tarArchive.conforms(to: .data))
  }

  @Test func desktopTypesConform() throws {
    let string = try #require(UTType("org.x.string"))
    #expect(string.conforms(to: .plainText))
    let uriList = try #require(UTType("org.freedesktop.uri-list"))
    #expect(uriList.conforms(to: .text))
    let copied = try #require(UTType("org.gnome.copied-files"))
    #expect(copied.conforms(to: .data) && !copied.conforms(to: .text))
  }

  @Test func undeclaredTypesConformOnlyToThemselves() {
    let undeclared = UTType(uncheckedIdentifier: "org.ferrytests.conformance.undeclared")
    #expect(UTType("org.ferrytests.conformance.undeclared") == nil)
    #expect(!undeclared.isDeclared)
    #expect(undeclared.conforms(to: undeclared))
    #expect(!undeclared.conforms(to: .item))
    #expect(undeclared.supertypes.isEmpty)
  }
}
