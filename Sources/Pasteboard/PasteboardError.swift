import UniformTypeIdentifiers

/// Why a pasteboard request failed. Each case names what was asked for; none of them changes
/// what the pasteboard holds.
///
/// ```swift
/// do {
///   let png = try await Pasteboard.general.data(for: .png)
/// } catch let error as PasteboardError {
///   print(error)   // the general pasteboard has no public.png (it offers public.utf8-plain-text, …)
/// }
/// ```
public enum PasteboardError: Error, CustomStringConvertible, Sendable {
  /// The pasteboard holds nothing.
  case empty(Pasteboard.Name)
  /// No item offers the type, directly, by conformance or by conversion.
  case typeNotAvailable(UTType, offered: [UTType])
  /// A representation's provider threw.
  case providerFailed(UTType, reason: String)
  /// A representation's provider ran past its time limit.
  case providerTimedOut(UTType, seconds: Double)
  /// A conversion from one type to another failed.
  case conversionFailed(from: UTType, to: UTType, reason: String)
  /// A concealed item cannot be saved or persisted.
  case concealed
  /// A file operation failed.
  case io(String)
  /// A pasteboard document is damaged or incomplete.
  case invalidDocument(path: String, reason: String)
  /// A converter declaration is malformed.
  case invalidConverterDeclaration(path: String, reason: String)

  /// One line naming what was asked for and what went wrong.
  public var description: String {
    switch self {
    case .empty(let name):
      return "the \(name.rawValue) pasteboard is empty"
    case .typeNotAvailable(let type, let offered):
      let list = offered.prefix(6).map(\.identifier).joined(separator: ", ")
      let more = offered.count > 6 ? ", …" : ""
      return offered.isEmpty
        ? "\(type.identifier) is not available"
        : "\(type.identifier) is not available (the item offers \(list)\(more))"
    case .providerFailed(let type, let reason):
      return "producing \(type.identifier) failed: \(reason)"
    case .providerTimedOut(let type, let seconds):
      return "producing \(type.identifier) took longer than \(Self.format(seconds)) s"
    case .conversionFailed(let from, let to, let reason):
      return "converting \(from.identifier) to \(to.identifier) failed: \(reason)"
    case .concealed:
      return "the item is concealed and is never saved"
    case .io(let reason):
      return reason
    case .invalidDocument(let path, let reason):
      return "\(path): not a valid pasteboard document: \(reason)"
    case .invalidConverterDeclaration(let path, let reason):
      // One line, whatever the file held: it is what `ferry register` prints.
      return "\(path): \(reason)".writingLineBreaksAsEscapes
    }
  }

  private static func format(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
  }
}
