import FoundationEssentials
import UniformTypeIdentifiers

/// Converts lists of files between the forms desktops exchange them in.
///
/// - `text/uri-list` (`org.freedesktop.uri-list`): URIs separated by CR LF, `#` lines are
///   comments (RFC 2483).
/// - `x-special/gnome-copied-files` (`org.gnome.copied-files`): `copy` or `cut`, then one URI
///   per line (GNOME Files, Nemo, Caja).
/// - `public.file-url` and `public.url`: the first URI.
/// - text: one path per line for `file:` URIs (percent-decoded), other URIs as they are.
///
/// Text is never turned into a file list: a copied path stays text, so pasting it into a
/// file manager does not move files around.
///
/// ```swift
/// FileListConverter().outputs(from: .uriList)
/// // [org.gnome.copied-files, public.file-url, public.url, public.utf8-plain-text]
/// ```
public struct FileListConverter: PasteboardConverter {
  /// Creates the converter.
  public init() {}

  /// What each file-list form converts to.
  public func outputs(from source: UTType) -> [UTType] {
    switch source {
    case .uriList: [.gnomeCopiedFiles, .fileURL, .url, .utf8PlainText]
    case .gnomeCopiedFiles, .fileURL: [.uriList]
    default: []
    }
  }

  /// Rewrites the list.
  ///
  /// - Throws: ``FileListError`` when the source holds no URI.
  public func convert(_ payload: PasteboardPayload, from source: UTType, to target: UTType)
    async throws -> PasteboardPayload
  {
    let uris = try Self.uris(in: payload.data(), as: source)
    guard let first = uris.first else { throw FileListError.empty(source) }
    switch target {
    case .uriList:
      return .data(Data(uris.map { $0 + "\r\n" }.joined().utf8))
    case .gnomeCopiedFiles:
      return .data(Data((["copy"] + uris).joined(separator: "\n").utf8))
    case .fileURL, .url:
      return .data(Data(first.utf8))
    case .utf8PlainText:
      return .data(Data(uris.map(Self.path).joined(separator: "\n").utf8))
    default:
      throw FileListError.unsupported(target)
    }
  }

  /// The URIs of a list in any of the source forms.
  static func uris(in data: Data, as source: UTType) throws -> [String] {
    let text = String(decoding: data, as: UTF8.self)
    var lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
      .map { $0.trimmingWhitespace() }
      .filter { !$0.isEmpty }
    if source == .gnomeCopiedFiles, let first = lines.first, first == "copy" || first == "cut" {
      lines.removeFirst()
    }
    return lines.filter { !$0.hasPrefix("#") }
  }

  /// The path of a `file:` URI, percent-decoded; any other URI unchanged.
  static func path(_ uri: String) -> String {
    guard uri.hasPrefix("file:"), let url = URL(string: uri), url.isFileURL else { return uri }
    return url.path
  }
}

/// Why a file list could not be converted.
public enum FileListError: Error, CustomStringConvertible, Sendable {
  /// The list holds no URI.
  case empty(UTType)
  /// The converter does not produce the type.
  case unsupported(UTType)

  /// One line naming the problem.
  public var description: String {
    switch self {
    case .empty(let type): "the \(type.identifier) list holds no URI"
    case .unsupported(let type): "no file-list form for \(type.identifier)"
    }
  }
}
