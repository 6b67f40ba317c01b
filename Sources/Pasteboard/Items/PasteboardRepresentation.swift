import FoundationEssentials
import UniformTypeIdentifiers

/// One representation of an item: a type and the way to produce its bytes.
///
/// ```swift
/// let item = PasteboardItem(representations: [
///   .data(Data(json.utf8), type: .profile),
///   .lazy(.utf8PlainText) { .data(Data(name.utf8)) },
///   .file(URL(fileURLWithPath: "/tmp/movie.mp4"), type: .mpeg4Movie),
/// ])
/// ```
public struct PasteboardRepresentation: Sendable {
  /// How a representation's bytes come into being.
  enum Provider: Sendable {
    case payload(PasteboardPayload)
    /// Run with the item's spool: `nil` for a concealed item, which never touches the disk.
    case lazy(timeLimit: Duration, @Sendable (ConversionSpool?) async throws -> PasteboardPayload)
  }

  /// The representation's type.
  public let type: UTType
  let provider: Provider
  /// What must live as long as the representation: the item whose spool holds its file,
  /// when it was taken from another item (``PasteboardItem/itemAtHand()``).
  let keeps: (any AnyObject & Sendable)?

  init(type: UTType, provider: Provider, keeps: (any AnyObject & Sendable)? = nil) {
    self.type = type
    self.provider = provider
    self.keeps = keeps
  }

  /// The file holding the bytes, for a representation made with ``file(_:type:)`` (as a
  /// document's are); `nil` for bytes in memory and lazy ones.
  public var fileURL: URL? {
    if case .payload(.file(let url)) = provider { return url }
    return nil
  }

  /// Whether the bytes come from a provider run on request (``lazy(_:timeLimit:_:)``) rather
  /// than being at hand. A history records what is at hand without running providers.
  public var isLazy: Bool {
    if case .lazy = provider { return true }
    return false
  }

  /// How long a lazy provider may run before the request fails. Ten seconds: longer than any
  /// reasonable conversion, shorter than the patience of GTK (30 s) and of people.
  public static let defaultTimeLimit: Duration = .seconds(10)

  /// Bytes in memory.
  ///
  /// ```swift
  /// .data(Data("hello".utf8), type: .utf8PlainText)
  /// ```
  public static func data(_ data: Data, type: UTType) -> PasteboardRepresentation {
    PasteboardRepresentation(type: type, provider: .payload(.data(data)))
  }

  /// A file, served by streaming it, never read whole into memory.
  ///
  /// ```swift
  /// .file(URL(fileURLWithPath: "/tmp/big.iso"), type: .diskImage)
  /// ```
  public static func file(_ url: URL, type: UTType) -> PasteboardRepresentation {
    PasteboardRepresentation(type: type, provider: .payload(.file(url)))
  }

  /// Bytes produced on the first request for this type, at most once, then kept.
  ///
  /// The provider runs when a reader first asks for the type (or a type converted from it);
  /// concurrent requests share one run. A provider that throws or runs past `timeLimit` fails
  /// that request (a later request runs it again); the item stays as it was.
  ///
  /// ```swift
  /// .lazy(.png) { .data(try renderThumbnail()) }
  /// ```
  ///
  /// - Parameters:
  ///   - type: The representation's type.
  ///   - timeLimit: How long one run may take.
  ///   - produce: Makes the payload.
  public static func lazy(
    _ type: UTType, timeLimit: Duration = defaultTimeLimit,
    _ produce: @escaping @Sendable () async throws -> PasteboardPayload
  ) -> PasteboardRepresentation {
    PasteboardRepresentation(
      type: type, provider: .lazy(timeLimit: timeLimit) { _ in try await produce() })
  }

  /// Bytes produced on the first request, as ``lazy(_:timeLimit:_:)``, by a provider that may
  /// write them to a file of the item's spool: for bytes that may be large and come from
  /// elsewhere (an X or Wayland owner), so that they are never held whole in memory.
  ///
  /// The provider gets the item's ``ConversionSpool``, or `nil` for a concealed item, whose
  /// bytes never touch the disk: it then returns them in memory.
  ///
  /// ```swift
  /// .lazy(.utf8PlainText, spooling: { spool in
  ///   guard let spool else { return .data(try await readWhole()) }
  ///   return try await spool.payload { descriptor in try await stream(into: descriptor) }
  /// })
  /// ```
  ///
  /// - Parameters:
  ///   - type: The representation's type.
  ///   - timeLimit: How long one run may take.
  ///   - produce: Makes the payload, given the item's spool.
  public static func lazy(
    _ type: UTType, timeLimit: Duration = defaultTimeLimit,
    spooling produce: @escaping @Sendable (ConversionSpool?) async throws -> PasteboardPayload
  ) -> PasteboardRepresentation {
    PasteboardRepresentation(type: type, provider: .lazy(timeLimit: timeLimit, produce))
  }
}
