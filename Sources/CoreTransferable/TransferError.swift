import FoundationEssentials
import UniformTypeIdentifiers

/// The error every transfer in this module throws: which type, which content type, and why.
///
/// The message names the value's type, the content type and the reason, and, when a
/// representation's own closure failed, that closure's error:
///
/// ```swift
/// do {
///   let csv = Data("name,bio\nJuan\n".utf8)
///   _ = try await ProfilesArchive(importing: csv, contentType: .commaSeparatedText)
/// } catch let error as TransferError {
///   print(error)
///   // cannot import ProfilesArchive from public.comma-separated-values-text: the
///   // representation's importer failed: line 2 has 1 field, expected 2
///   error.code            // .importFailed
///   error.underlyingError // the importer's own error
/// }
/// ```
///
/// Cancellation is not wrapped: a cancelled transfer throws `CancellationError`.
public struct TransferError: Error, Sendable, CustomStringConvertible {
  /// Why a transfer failed: one of four named values.
  ///
  /// A `catch` clause can name a code, since a code matches the errors that carry it:
  ///
  /// ```swift
  /// do { _ = try await value.exported(as: .png) }
  /// catch TransferError.Code.noSuchRepresentation { print("no PNG") }
  /// catch TransferError.Code.exportingConditionFalse { print("not for this value") }
  /// ```
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    enum Value: Hashable, Sendable {
      case noSuchRepresentation, exportingConditionFalse, exportFailed, importFailed
    }

    let value: Value

    /// The type has no representation for the content type in that direction (or none that
    /// the receiver supports).
    ///
    /// ```swift
    /// try await profile.exported(as: .png)   // throws .noSuchRepresentation
    /// ```
    public static let noSuchRepresentation = Self(value: .noSuchRepresentation)

    /// Representations for the content type exist, but their exporting conditions are false
    /// for this value.
    ///
    /// ```swift
    /// // throws .exportingConditionFalse when the archive does not support CSV
    /// try await archive.exported(as: .commaSeparatedText)
    /// ```
    public static let exportingConditionFalse = Self(value: .exportingConditionFalse)

    /// The representation's exporter threw, or its file could not be read or copied.
    ///
    /// ```swift
    /// try await Video(url: missingFile).exported(as: .mpeg4Movie)   // throws .exportFailed
    /// ```
    public static let exportFailed = Self(value: .exportFailed)

    /// The representation's importer threw, or the received data could not be handed to it.
    ///
    /// ```swift
    /// // throws .importFailed: the bytes are not UTF-8
    /// try await String(importing: Data([0xFF]), contentType: .utf8PlainText)
    /// ```
    public static let importFailed = Self(value: .importFailed)

    /// A short phrase naming the reason.
    ///
    /// ```swift
    /// TransferError.Code.importFailed.description   // "the representation's importer failed"
    /// ```
    public var description: String {
      switch value {
      case .noSuchRepresentation: "no representation supports that content type"
      case .exportingConditionFalse: "the exporting condition is false for this value"
      case .exportFailed: "the representation's exporter failed"
      case .importFailed: "the representation's importer failed"
      }
    }

    /// Whether `error` is a ``TransferError`` with this code; lets `catch` clauses name codes.
    ///
    /// ```swift
    /// catch TransferError.Code.importFailed { … }
    /// ```
    public static func ~= (code: Self, error: any Error) -> Bool {
      (error as? TransferError)?.code == code
    }
  }

  /// Which way the transfer went.
  ///
  /// ```swift
  /// error.direction == .import
  /// ```
  public enum Direction: Hashable, Sendable {
    /// From a value to data or a file.
    case export
    /// From data or a file to a value.
    case `import`
  }

  /// Why the transfer failed.
  ///
  /// ```swift
  /// #expect(error.code == .noSuchRepresentation)
  /// ```
  public let code: Code

  /// Whether the value was being exported or imported.
  ///
  /// ```swift
  /// error.direction   // .export
  /// ```
  public let direction: Direction

  /// The name of the transferable type, such as `Profile`.
  ///
  /// ```swift
  /// error.typeName   // "Profile"
  /// ```
  public let typeName: String

  /// The content type asked for or offered; `nil` when the caller named none.
  ///
  /// ```swift
  /// error.contentType   // public.png
  /// ```
  public let contentType: UTType?

  /// The error the representation's closure, or the file system, threw; `nil` for
  /// ``Code-swift.struct/noSuchRepresentation`` and
  /// ``Code-swift.struct/exportingConditionFalse``.
  ///
  /// ```swift
  /// (error.underlyingError as? DecodingError) != nil
  /// ```
  public let underlyingError: (any Error)?

  /// Creates an error; the module's own transfers (and the pasteboard's) make these.
  ///
  /// ```swift
  /// throw TransferError(.noSuchRepresentation, .export, typeName: "Profile", contentType: .png)
  /// ```
  package init(
    _ code: Code, _ direction: Direction, typeName: String, contentType: UTType?,
    underlyingError: (any Error)? = nil
  ) {
    self.code = code
    self.direction = direction
    self.typeName = typeName
    self.contentType = contentType
    self.underlyingError = underlyingError
  }

  /// One line naming the type, the content type and the reason.
  ///
  /// ```swift
  /// print(error)
  /// // cannot export Profile as public.png: no representation supports that content type
  /// ```
  public var description: String {
    let verb = direction == .export ? "export" : "import"
    let preposition = direction == .export ? "as" : "from"
    var text = "cannot \(verb) \(typeName)"
    if let contentType {
      text += " \(preposition) \(contentType.identifier)"
    }
    if code == .noSuchRepresentation && contentType == nil {
      text += ": no representation matches"
    } else {
      text += ": \(code)"
    }
    if let underlyingError {
      text += ": \(Self.describe(underlyingError))"
    }
    return text
  }

  private static func describe(_ error: any Error) -> String {
    if let localized = error as? any LocalizedError, let text = localized.errorDescription {
      return text
    }
    return String(describing: error)
  }
}

extension TransferError: LocalizedError {
  /// The same line as ``description``, for `localizedDescription`.
  ///
  /// ```swift
  /// error.localizedDescription   // "cannot import Profile from com.example.profile: …"
  /// ```
  public var errorDescription: String? { description }
}
