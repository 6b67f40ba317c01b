import ArgumentParser
import FerryClient
import FerryCommandLine
import FerrySystem
import Pasteboard
import UniformTypeIdentifiers

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension Ferry {
  /// `ferry save`: the broker's item, every stored representation in order, as a pasteboard
  /// document.
  struct SaveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "save",
      abstract:
        "Save a pasteboard's item, with all its representations, as a .pasteboard document.",
      discussion: """
        The document is a directory: a manifest plus one file per representation, in the \
        item's order. The save is atomic: a document already at PATH is replaced whole or \
        left as it was. A concealed item (a password) is never written. Needs a running \
        broker: it holds the item's representations as they were copied.
        """)

    @OptionGroup var options: PasteboardOptions
    @Argument(
      help: ArgumentHelp(
        "Where to save the document (conventionally NAME.pasteboard).", valueName: "path"))
    var path: String

    func run() throws {
      let client = try requireBroker("save")
      defer { client.close() }
      let state = try brokerCall { try client.types(of: options.pasteboard) }
      guard !state.storedTypes.isEmpty else {
        throw CommandFailure(
          "nothing to save: the \(options.pasteboard) pasteboard is empty",
          status: .nothingAvailable)
      }
      guard !state.concealed else {
        throw CommandFailure(
          "the \(options.pasteboard) pasteboard holds a concealed item (a password); it is never written to disk",
          status: .nothingAvailable)
      }
      let staging = try StagingDirectory()
      var representations: [PasteboardRepresentation] = []
      for (index, identifier) in state.storedTypes.enumerated() {
        let file = staging.url.appendingPathComponent("\(index)")
        try Self.read(identifier, from: options.pasteboard, client: client, into: file)
        let type = UTType(identifier) ?? UTType(importedAs: identifier)
        representations.append(.file(file, type: type))
      }
      let document = PasteboardDocument(items: [PasteboardItem(representations: representations)])
      let destination = URL(fileURLWithPath: path)
      do {
        try runUntilDone { try await document.save(to: destination) }
      } catch let error as PasteboardError {
        throw CommandFailure("cannot save \(path): \(error)", status: .io)
      }
    }

    /// Reads exactly `identifier` (a stored type) into `file`.
    private static func read(
      _ identifier: String, from pasteboard: String, client: BrokerClient, into file: URL
    ) throws {
      guard
        let handle = try? FileDescriptor.open(
          atPath: file.path, .writeOnly, options: [.create, .truncate],
          permissions: [.ownerReadWrite, .groupRead, .otherRead])
      else { throw CommandFailure("cannot create \(file.path)", status: .io) }
      defer { try? handle.close() }
      let served = try brokerCall {
        try client.read(types: [identifier], from: pasteboard, into: handle.rawValue)
      }
      guard served == identifier else {
        throw CommandFailure(
          "the \(pasteboard) pasteboard changed while it was saved (\(identifier) is gone); nothing was written",
          status: .nothingAvailable)
      }
    }
  }

  /// `ferry open`: a pasteboard document's first item onto a pasteboard.
  struct OpenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "open",
      abstract: "Put a .pasteboard document's item on a pasteboard, with all its representations.",
      discussion: """
        The document is checked whole before anything is copied: a damaged one is refused \
        with its problem named, and the pasteboard keeps what it held. Representations are \
        streamed from the document's files to the broker, never loaded whole; without a \
        broker the item is served from a background process, as pbcopy does.
        """)

    @OptionGroup var options: PasteboardOptions
    @Argument(help: ArgumentHelp("The document to open.", valueName: "path"))
    var path: String

    func run() throws {
      let document: PasteboardDocument
      do {
        document = try PasteboardDocument.open(at: URL(fileURLWithPath: path))
      } catch let error as PasteboardError {
        throw CommandFailure("\(error)", status: .badInput)
      }
      guard let item = document.items.first, !item.representations.isEmpty else {
        throw CommandFailure("\(path) holds no item", status: .nothingAvailable)
      }
      let files = try item.representations.map { representation -> (type: String, url: URL) in
        guard let url = representation.fileURL else {
          throw CommandFailure(
            "\(path): \(representation.type.identifier) is not a file of the document",
            status: .badInput)
        }
        return (representation.type.identifier, url)
      }
      let concealed = item.options.contains(.concealed)
      if let client = try? BrokerClient.connect(clientName: "ferry open") {
        defer { client.close() }
        let handles = try files.map { file -> FileDescriptor in
          guard let handle = try? FileDescriptor.open(atPath: file.url.path, .readOnly) else {
            throw CommandFailure("cannot read \(file.url.path)", status: .io)
          }
          return handle
        }
        defer { for handle in handles { try? handle.close() } }
        let representations = zip(files, handles).map { file, handle in
          BrokerClient.Representation(type: file.type, source: .fileDescriptor(handle.rawValue))
        }
        try brokerCall {
          _ = try client.write(
            representations, to: options.pasteboard, options: concealed ? [.concealed] : [])
        }
        return
      }
      let representations = try files.map { file in
        (type: file.type, data: try InputReader.read(file: file.url.path))
      }
      try Copier.copy(
        CopyRequest(
          pasteboard: options.pasteboard, representations: representations, concealed: concealed,
          client: "ferry open"))
    }
  }
}

/// A private directory for one command's temporary files, removed with the value.
private final class StagingDirectory {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ferry-save-\(getpid())-\(UUID().uuidString.prefix(8))")
    do {
      try FileManager.default.createDirectory(
        at: url, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    } catch {
      throw CommandFailure(
        "cannot create a temporary directory: \(error.plainDescription)", status: .io)
    }
  }

  deinit { try? FileManager.default.removeItem(at: url) }
}
