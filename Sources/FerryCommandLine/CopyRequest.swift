import Foundation
import UniformTypeIdentifiers

/// One copy: representations in order for one pasteboard.
public struct CopyRequest: Sendable {
  /// The pasteboard's name.
  public var pasteboard: String
  /// The representations, richest first.
  public var representations: [(type: UTType, data: Data)]
  /// Whether the copy is a secret.
  public var concealed: Bool

  /// Creates a request.
  public init(pasteboard: String, representations: [(type: UTType, data: Data)], concealed: Bool) {
    self.pasteboard = pasteboard
    self.representations = representations
    self.concealed = concealed
  }
}

/// One paste: a pasteboard and the types wanted, best first.
public struct PasteRequest: Sendable {
  public var pasteboard: String
  public var preferences: [UTType]
  public var timeout: Duration

  public init(pasteboard: String, preferences: [UTType], timeout: Duration) {
    self.pasteboard = pasteboard
    self.preferences = preferences
    self.timeout = timeout
  }
}

/// Reading what a copy command was given.
public enum InputReader {
  /// The whole of `file`, or of standard input when `file` is `nil` or `-`.
  ///
  /// - Throws: ``CommandFailure`` with status 6 naming the file.
  public static func read(file: String?) throws -> Data {
    if let file, file != "-" {
      do {
        return try Data(contentsOf: URL(fileURLWithPath: file))
      } catch {
        throw CommandFailure("cannot read \(file): \((error as NSError).localizedDescription)", status: .io)
      }
    }
    return FileHandle.standardInput.readDataToEndOfFile()
  }
}

/// Deciding the type of one representation of a copy.
public enum CopyPlanner {
  /// The representation for `data`: the named type, or the inferred one.
  ///
  /// - Throws: ``CommandFailure``: status 1 for empty input, 2 for an unknown type, 5 for
  ///   bytes that are not UTF-8 given as UTF-8 text.
  public static func representation(of data: Data, fileName: String?, type: String?) throws -> (type: UTType, data: Data) {
    guard !data.isEmpty else {
      throw CommandFailure("nothing to copy: the input is empty (the pasteboard keeps what it had)", status: .nothingAvailable)
    }
    guard let type else { return (ContentType.infer(Array(data), fileName: fileName), data) }
    let resolved = try TypeArgument.resolve(type)
    if resolved == .utf8PlainText || resolved == .plainText, String(validating: data, as: UTF8.self) == nil {
      throw CommandFailure(
        "the input is not UTF-8 text, so it cannot be copied as \(resolved.identifier) (give another --type, or none to detect it)",
        status: .badInput)
    }
    return (resolved, data)
  }
}
