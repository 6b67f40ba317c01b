import FoundationEssentials
import UniformTypeIdentifiers

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One copy: representations in order for one pasteboard.
public struct CopyRequest: Sendable {
  /// The pasteboard's name.
  public var pasteboard: String
  /// The representations, richest first, each with its type identifier.
  public var representations: [(type: String, data: Data)]
  /// Whether the copy is a secret.
  public var concealed: Bool
  /// The tool's name for the broker (`pbcopy`, `ferry copy`): the history's source of the copy.
  public var client: String
  /// Send the copy to the terminal's clipboard (OSC 52) instead of the broker or the display.
  public var throughTerminal: Bool

  /// Creates a request.
  public init(
    pasteboard: String, representations: [(type: String, data: Data)], concealed: Bool,
    client: String = "pbcopy",
    throughTerminal: Bool = false
  ) {
    self.pasteboard = pasteboard
    self.representations = representations
    self.concealed = concealed
    self.client = client
    self.throughTerminal = throughTerminal
  }
}

/// One paste: a pasteboard and the types wanted, best first.
public struct PasteRequest: Sendable {
  /// The pasteboard's name.
  public var pasteboard: String
  /// The identifiers of the types wanted, best first (see ``TypeArgument/identifier(_:)``).
  public var preferences: [String]
  /// How long to wait for the owner or the broker.
  public var timeout: Duration

  /// Creates a request.
  public init(pasteboard: String, preferences: [String], timeout: Duration) {
    self.pasteboard = pasteboard
    self.preferences = preferences
    self.timeout = timeout
  }
}

/// Deciding the type of one representation of a copy.
public enum CopyPlanner {
  /// The representation for `data`: the named type, or the inferred one, as an identifier.
  ///
  /// Text, named or inferred, never loads the type tables (see ``TypeArgument/identifier(_:)``).
  ///
  /// - Throws: ``CommandFailure``: status 1 for empty input, 2 for an unknown type, 5 for
  ///   bytes that are not UTF-8 given as UTF-8 text.
  public static func representation(of data: Data, fileName: String?, type: String?) throws -> (
    type: String, data: Data
  ) {
    guard !data.isEmpty else {
      throw CommandFailure(
        "nothing to copy: the input is empty (the pasteboard keeps what it had)",
        status: .nothingAvailable)
    }
    guard let type else {
      if ContentType.looksLikeText(data) { return (TypeArgument.textIdentifier, data) }
      return (ContentType.infer(data, fileName: fileName).identifier, data)
    }
    let identifier = try TypeArgument.identifier(type)
    if [TypeArgument.textIdentifier, "public.plain-text"].contains(identifier.lowercased()),
      !ContentType.isUTF8(data)
    {
      throw CommandFailure(
        "the input is not UTF-8 text, so it cannot be copied as \(identifier) (give another --type, or none to detect it)",
        status: .badInput)
    }
    return (identifier, data)
  }
}
