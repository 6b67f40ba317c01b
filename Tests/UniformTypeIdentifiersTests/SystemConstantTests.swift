import Foundation
import Testing

@testable import UniformTypeIdentifiers

/// One object of `Data/uttype-constants.json`: an Apple constant as Apple's system declaration
/// has it.
struct ReferenceConstant: Decodable, Sendable, CustomTestStringConvertible {
  var name: String
  var identifier: String
  var conformsTo: [String]
  var filenameExtensions: [String]
  var mimeTypes: [String]
  var description: String

  var testDescription: String { ".\(name) (\(identifier))" }

  /// Every entry of the reference file, read at test time; empty when the file cannot be read
  /// (`referenceFileHoldsEveryConstant` then fails).
  static let all: [ReferenceConstant] = {
    let url = repositoryRoot.appendingPathComponent("Data/uttype-constants.json")
    guard let data = try? Data(contentsOf: url) else { return [] }
    return (try? JSONDecoder().decode([ReferenceConstant].self, from: data)) ?? []
  }()
}

/// Whether the process's locale asks for English (or nothing), so that descriptions are the
/// declarations' own English text.
let localeIsEnglish: Bool = {
  let environment = ProcessInfo.processInfo.environment
  let locale = [environment["LC_ALL"], environment["LC_MESSAGES"], environment["LANG"]]
    .compactMap { $0 }.first { !$0.isEmpty }
  guard let locale else { return true }
  let name = locale.split(separator: ".").first.map(String.init) ?? ""
  return ["", "C", "POSIX", "en", "en_US"].contains(name)
}()

@Suite("Apple's constants against the reference data")
struct SystemConstantTests {
  @Test func referenceFileHoldsEveryConstant() throws {
    let all = ReferenceConstant.all
    try #require(all.count == 141, "Data/uttype-constants.json should hold 141 constants")
    #expect(Set(all.map(\.name)).count == 141)
    #expect(Set(all.map(\.identifier)).count == 141)
    #expect(Set(all.map(\.name)) == Set(constantsByName.keys))
  }

  @Test(arguments: ReferenceConstant.all)
  func constantMatchesReference(_ reference: ReferenceConstant) throws {
    let constant = try #require(constantsByName[reference.name], "no constant .\(reference.name)")
    #expect(constant.identifier == reference.identifier)

    let looked = try #require(UTType(reference.identifier), "UTType(\"\(reference.identifier)\")")
    #expect(looked == constant)
    #expect(looked.identifier == reference.identifier)
    #expect(UTType(reference.identifier.uppercased()) == constant)

    #expect(constant.isDeclared)
    #expect(!constant.isDynamic)
    #expect(constant.isPublic == reference.identifier.hasPrefix("public."))
  }

  @Test(arguments: ReferenceConstant.all)
  func directParentsAreSupertypes(_ reference: ReferenceConstant) throws {
    let constant = try #require(constantsByName[reference.name])
    let supertypes = constant.supertypes
    #expect(!supertypes.contains(constant), "supertypes exclude the type itself")
    for parentIdentifier in reference.conformsTo {
      let parent = try #require(UTType(parentIdentifier), "parent \(parentIdentifier) is declared")
      #expect(supertypes.contains(parent), "\(parentIdentifier) is a supertype")
      #expect(constant.conforms(to: parent))
      #expect(constant.isSubtype(of: parent))
      #expect(parent.isSupertype(of: constant))
      #expect(!parent.conforms(to: constant), "no cycle back from \(parentIdentifier)")
      // The closure is transitive: the parent's own supertypes are the type's too.
      #expect(parent.supertypes.isSubset(of: supertypes))
    }
    // The declared direct parents are exactly the reference's.
    #expect(constant._parents.map(\.identifier) == reference.conformsTo)
  }

  @Test(arguments: ReferenceConstant.all)
  func tagsStartWithReferenceTags(_ reference: ReferenceConstant) throws {
    let constant = try #require(constantsByName[reference.name])
    let tags = constant.tags
    let extensions = tags[.filenameExtension] ?? []
    let mimeTypes = tags[.mimeType] ?? []
    #expect(
      Array(extensions.prefix(reference.filenameExtensions.count)) == reference.filenameExtensions)
    #expect(Array(mimeTypes.prefix(reference.mimeTypes.count)) == reference.mimeTypes)
    if let first = reference.filenameExtensions.first {
      #expect(constant.preferredFilenameExtension == first)
    }
    if let first = reference.mimeTypes.first {
      #expect(constant.preferredMIMEType == first)
    }
    // Whatever the MIME database adds, the preferred tag is the first tag.
    #expect(constant.preferredFilenameExtension == extensions.first)
    #expect(constant.preferredMIMEType == mimeTypes.first)
  }

  @Test(
    .enabled(if: localeIsEnglish, "the locale asks for a translation"),
    arguments: ReferenceConstant.all)
  func descriptionIsReferenceDescription(_ reference: ReferenceConstant) throws {
    let constant = try #require(constantsByName[reference.name])
    #expect(constant.localizedDescription == reference.description)
    #expect(constant.description == reference.identifier)
  }

  @Test(arguments: ReferenceConstant.all)
  func tagsFindTheConstant(_ reference: ReferenceConstant) throws {
    let constant = try #require(constantsByName[reference.name])
    // Each tag finds a type carrying it, and the constant is among the types carrying it.
    for ext in reference.filenameExtensions {
      let types = UTType.types(tag: ext, tagClass: .filenameExtension, conformingTo: nil)
      #expect(types.contains(constant), "extension \(ext)")
      #expect(types.allSatisfy { $0.tags[.filenameExtension]?.contains(ext) ?? false })
    }
    for mimeType in reference.mimeTypes {
      let types = UTType.types(tag: mimeType, tagClass: .mimeType, conformingTo: nil)
      #expect(types.contains(constant), "MIME type \(mimeType)")
    }
  }

  /// Section 2.1 of the reference: parents that have no constant but close the graph.
  @Test(arguments: [
    ("public.heif-standard", ["public.image"], ["heif", "heic", "heics"]),
    ("public.aifc-audio", ["public.audio"], ["aiff"]),
    ("com.apple.m4v-video", ["public.mpeg-4"], ["appleProtectedMPEG4Video"]),
    ("public.stored-url", [], ["internetLocation", "internetShortcut"]),
    ("com.apple.localizable-name-bundle", ["com.apple.bundle"], ["applicationBundle"]),
    ("org.gnu.gnu-tar-archive", ["public.data", "public.archive"], ["tarArchive"]),
    ("com.pkware.zip-archive", ["public.data", "public.archive"], ["zip"]),
    ("public.haptics-content", [], ["ahap"]),
  ])
  func nonConstantParentIsDeclared(
    identifier: String, parents: [String], usedBy: [String]
  ) throws {
    let type = try #require(UTType(identifier))
    #expect(type.isDeclared)
    #expect(type._parents.map(\.identifier) == parents)
    for name in usedBy {
      let child = try #require(constantsByName[name])
      #expect(child.conforms(to: type), ".\(name) conforms to \(identifier)")
    }
  }

  @Test func referenceTagObservations() {
    #expect(UTType.data.tags[.mimeType]?.first == "application/octet-stream")
    #expect(UTType.plainText.tags[.filenameExtension]?.starts(with: ["txt", "text"]) == true)
    #expect(UTType.plainText.preferredMIMEType == "text/plain")
    #expect(
      UTType.utf8PlainText.tags[.mimeType]?.starts(with: [
        "text/plain;charset=utf-8", "text/plain;charset=\"utf-8\"",
      ]) == true)
  }
}
