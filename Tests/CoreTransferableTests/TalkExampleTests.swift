import CoreTransferable
import Foundation
import Testing
import UniformTypeIdentifiers

/// The talk's profile, listed the other way round: the name first, the JSON second.
struct NameFirstProfile: Codable, Equatable {
  var name: String
  var bio: String
}

extension NameFirstProfile: Transferable {
  static var transferRepresentation: some TransferRepresentation {
    ProxyRepresentation(exporting: \.name)
    CodableRepresentation(contentType: .profile)
  }
}

@Suite("Meet Transferable: Profile ordering")
struct ProfileOrderingTests {
  let profile = Profile(name: "Juan Chavez", bio: "Ballroom dancer", funFacts: ["juggles"])

  @Test func profileListsItsJSONTypeThenTheNamesTextTypes() {
    #expect(Profile.exportedContentTypes() == [.profile, .utf8PlainText, .plainText])
    #expect(profile.exportedContentTypes() == [.profile, .utf8PlainText, .plainText])
    #expect(Profile.importedContentTypes() == [.profile])
  }

  @Test func receiverThatKnowsProfilesGetsTheJSON() async throws {
    let export = try #require(profile.transferExport(accepting: [.profile, .plainText]))
    #expect(export.contentType == .profile)
    let json = try await export.data()
    #expect(try JSONDecoder().decode(Profile.self, from: json) == profile)
    #expect(try await Profile(importing: json, contentType: .profile) == profile)
    #expect(try await profile.transferred(as: Profile.self) == profile)
  }

  @Test func textOnlyReceiverGetsTheName() async throws {
    let export = try #require(profile.transferExport(accepting: [.plainText]))
    #expect(export.contentType == .utf8PlainText)
    #expect(text(try await export.data()) == "Juan Chavez")
    #expect(try await profile.transferred(as: String.self) == "Juan Chavez")
    #expect(text(try await profile.exported(as: .plainText)) == "Juan Chavez")
  }

  @Test func swappingTheOrderFlipsWhatAReceiverOfBothGets() async throws {
    let swapped = NameFirstProfile(name: "Juan Chavez", bio: "Ballroom dancer")
    #expect(swapped.exportedContentTypes() == [.utf8PlainText, .plainText, .profile])

    let both: [UTType] = [.profile, .plainText]
    #expect(profile.transferExport(accepting: both)?.contentType == .profile)
    #expect(swapped.transferExport(accepting: both)?.contentType == .utf8PlainText)

    // A receiver of any data takes the first representation of each.
    #expect(text(try await profile.exported(as: nil)).hasPrefix("{"))
    #expect(text(try await swapped.exported(as: nil)) == "Juan Chavez")
    #expect(text(try await swapped.exported(as: .data)) == "Juan Chavez")

    // A receiver that knows only profiles still gets the JSON of the swapped one.
    let json = try await swapped.exported(as: .profile)
    #expect(try JSONDecoder().decode(NameFirstProfile.self, from: json) == swapped)
    #expect(try await swapped.transferred(as: NameFirstProfile.self) == swapped)
  }
}

@Suite("Meet Transferable: ProfilesArchive")
struct ProfilesArchiveTests {
  let archive = ProfilesArchive(profiles: [
    Profile(name: "Juan", bio: "dancer"), Profile(name: "Mei", bio: "pilot"),
  ])

  @Test func exportsCSV() async throws {
    let csv = try await archive.exported(as: .commaSeparatedText)
    #expect(text(csv) == "name,bio\nJuan,dancer\nMei,pilot\n")
    // CSV is plain text, so a text receiver takes it too.
    #expect(archive.transferExport(accepting: [.plainText])?.contentType == .commaSeparatedText)
  }

  @Test func importsCSV() async throws {
    let imported = try await ProfilesArchive(
      importing: Data("name,bio\nJuan,dancer\nMei,pilot\n".utf8), contentType: .commaSeparatedText)
    #expect(imported == archive)
    #expect(try await archive.transferred(as: ProfilesArchive.self) == archive)
  }

  @Test func exportingConditionIsEvaluatedPerValue() async throws {
    let unquotable = ProfilesArchive(profiles: [Profile(name: "Chavez, Juan", bio: "dancer")])
    #expect(!unquotable.supportsCSV)
    #expect(ProfilesArchive.exportedContentTypes() == [.commaSeparatedText])
    #expect(archive.exportedContentTypes() == [.commaSeparatedText])
    #expect(unquotable.exportedContentTypes() == [])
    #expect(unquotable.transferExports().isEmpty)

    let error = await #expect(throws: TransferError.self) {
      try await unquotable.exported(as: .commaSeparatedText)
    }
    #expect(error?.code == .exportingConditionFalse)
    // Imports are unaffected by the condition.
    #expect(ProfilesArchive.importedContentTypes() == [.commaSeparatedText])
  }
}

@Suite("Meet Transferable: Video")
struct VideoTests {
  @Test func videoOffersTheMovieThenItsURL() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let video = Video(url: try scratch.file("clip.mp4", contents: Data("movie".utf8)))
    #expect(Video.exportedContentTypes() == [.mpeg4Movie, .fileURL, .url])
    #expect(video.exportedContentTypes() == [.mpeg4Movie, .fileURL, .url])
    #expect(Video.importedContentTypes() == [.mpeg4Movie])
  }

  @Test func receiverOfMoviesGetsACopyOfTheFile() async throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let original = try scratch.file("clip.mp4", contents: Data("not really a movie".utf8))
    let received = try await Video(url: original).transferred(as: Video.self)
    defer { try? FileManager.default.removeItem(at: received.url.deletingLastPathComponent()) }

    #expect(received.url != original)
    #expect(received.url.lastPathComponent == "clip.mp4")
    #expect(try Data(contentsOf: received.url) == Data("not really a movie".utf8))
    #expect(exists(original))
  }

  @Test func receiverOfURLsGetsTheFileURL() async throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let original = try scratch.file("clip.mp4", contents: Data("movie".utf8))
    let video = Video(url: original)

    let export = try #require(video.transferExport(accepting: [.url]))
    #expect(export.contentType == .fileURL)
    #expect(text(try await export.data()) == original.absoluteString)
    #expect(try await video.transferred(as: URL.self) == original)
  }
}
