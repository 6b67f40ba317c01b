import Foundation
import Testing

@testable import UniformTypeIdentifiers

/// Naming files after their type (`URL.appendingPathComponent(_:conformingTo:)` and its
/// kin), and tag classes printing as Apple's do.
@Suite("File names from content types")
struct ContentTypeFileNameTests {
  let folder = URL(filePath: "/tmp/exports/", directoryHint: .isDirectory)

  @Test func aValidExtensionStaysAndAnotherIsAppended() {
    #expect(
      folder.appendingPathComponent("puppy.jpg", conformingTo: .jpeg).path
        == "/tmp/exports/puppy.jpg")
    #expect(
      folder.appendingPathComponent("puppy.jpg", conformingTo: .image).path
        == "/tmp/exports/puppy.jpg")
    #expect(
      folder.appendingPathComponent("puppy.jpg", conformingTo: .plainText).path
        == "/tmp/exports/puppy.jpg.txt")
    #expect(
      folder.appendingPathComponent("notes", conformingTo: .plainText).path
        == "/tmp/exports/notes.txt")
    // An extension of a supertype's subtype is valid: `.PNG` is a PNG, so an image.
    #expect(
      URL(filePath: "/tmp/puppy.PNG").appendingPathExtension(for: .image).path == "/tmp/puppy.PNG")
    #expect(URL(filePath: "/tmp/puppy").appendingPathExtension(for: .png).path == "/tmp/puppy.png")
    #expect(
      URL(filePath: "/tmp/.hidden").appendingPathExtension(for: .png).path == "/tmp/.hidden.png")
  }

  @Test func mutatingForms() {
    var url = folder
    url.appendPathComponent("report", conformingTo: .pdf)
    #expect(url.path == "/tmp/exports/report.pdf")
    url.appendPathExtension(for: .plainText)
    #expect(url.path == "/tmp/exports/report.pdf.txt")
  }

  @Test func aTypeWithoutAPreferredExtensionLeavesTheNameAlone() {
    let untagged = UTType(exportedAs: "org.ferrytests.filename.untagged")
    #expect(untagged.preferredFilenameExtension == nil)
    #expect(
      URL(filePath: "/tmp/profile").appendingPathExtension(for: untagged).path == "/tmp/profile")
    #expect("profile".appendingPathExtension(for: untagged) == "profile")
  }

  @Test func stringPaths() {
    #expect(
      "/tmp/exports".appendingPathComponent("notes", conformingTo: .plainText)
        == "/tmp/exports/notes.txt")
    #expect(
      "/tmp/exports/".appendingPathComponent("a.txt", conformingTo: .plainText)
        == "/tmp/exports/a.txt")
    #expect("".appendingPathComponent("a", conformingTo: .json) == "a.json")
    #expect("puppy.jpg".appendingPathExtension(for: .image) == "puppy.jpg")
    #expect("puppy.jpg".appendingPathExtension(for: .plainText) == "puppy.jpg.txt")
    #expect("dir.d/puppy".appendingPathExtension(for: .png) == "dir.d/puppy.png")
    #expect("dir/".appendingPathExtension(for: .png) == "dir.png")
  }

  @Test func tagClassesPrintTheirIdentifier() {
    #expect("\(UTTagClass.mimeType)" == "public.mime-type")
    #expect(String(describing: [UTTagClass.filenameExtension]) == "[public.filename-extension]")
    #expect(String(reflecting: UTTagClass(rawValue: "com.apple.ostype")) == "com.apple.ostype")
    #expect("\(UTType.png.tags)".contains("public.mime-type: [\"image/png\""))
  }
}
