import FoundationEssentials
import UniformTypeIdentifiers

/// A representation that transfers a value through another transferable type.
///
/// The proxy type's representations take this representation's place in the list, in their
/// own order: a profile that exports its name as a `String` offers UTF-8 plain text and plain
/// text at that position.
///
/// ```swift
/// extension Profile: Transferable {
///   static var transferRepresentation: some TransferRepresentation {
///     CodableRepresentation(contentType: .profile)
///     ProxyRepresentation(exporting: \.name)
///   }
/// }
///
/// extension Video: Transferable {
///   static var transferRepresentation: some TransferRepresentation {
///     FileRepresentation(contentType: .mpeg4Movie) { SentTransferredFile($0.url) } importing: {
///       …
///     }
///     ProxyRepresentation(exporting: \.url)   // receivers that take URLs get the file's URL
///   }
/// }
/// ```
///
/// Synchronous exporters run when a value's content types are listed, so that the proxy's
/// own exporting conditions are evaluated on the proxy value; keep them cheap. Exporters that
/// throw there leave their types out of the list.
public struct ProxyRepresentation<Item: Transferable, ProxyRepresentation: Transferable>:
  TransferRepresentation
{
  let exporter: ProxyExporter<Item, ProxyRepresentation>?
  let importer: (@Sendable (ProxyRepresentation) async throws -> Item)?

  /// A representation that imports a value from a proxy value.
  ///
  /// ```swift
  /// ProxyRepresentation(importing: { (name: String) in Profile(name: name) })
  /// ```
  ///
  /// - Parameter importing: Makes a value from the proxy.
  public init(importing: @escaping @Sendable (ProxyRepresentation) throws -> Item) {
    self.exporter = nil
    self.importer = { try importing($0) }
  }

  /// A representation that imports a value from a proxy value, asynchronously.
  ///
  /// ```swift
  /// ProxyRepresentation(importing: { (url: URL) in try await Document.open(url) })
  /// ```
  ///
  /// - Parameter importing: Makes a value from the proxy.
  public init(importing: @escaping @Sendable (ProxyRepresentation) async throws -> Item) {
    self.exporter = nil
    self.importer = importing
  }

  /// A representation that exports a value as a proxy value.
  ///
  /// ```swift
  /// ProxyRepresentation(exporting: \.name)
  /// ```
  ///
  /// - Parameter exporting: Converts the value to the proxy.
  public init(exporting: @escaping @Sendable (Item) throws -> ProxyRepresentation) {
    self.exporter = .sync(exporting)
    self.importer = nil
  }

  /// A representation that exports a value as a proxy value, asynchronously.
  ///
  /// The proxy's exporting conditions can then only be checked when the data is produced,
  /// and its types are listed whether or not they hold; prefer a synchronous exporter.
  ///
  /// ```swift
  /// ProxyRepresentation(exporting: { (document: Document) in await document.snapshotURL() })
  /// ```
  ///
  /// - Parameter exporting: Converts the value to the proxy.
  @available(*, deprecated, message: "A synchronous exporter should be used instead.")
  public init(exporting: @escaping @Sendable (Item) async throws -> ProxyRepresentation) {
    self.exporter = .async(exporting)
    self.importer = nil
  }

  /// A representation that exports a value as a proxy value and imports it back.
  ///
  /// ```swift
  /// ProxyRepresentation(exporting: \.name, importing: { Profile(name: $0) })
  /// ```
  ///
  /// - Parameters:
  ///   - exporting: Converts the value to the proxy.
  ///   - importing: Makes a value from the proxy.
  public init(
    exporting: @escaping @Sendable (Item) throws -> ProxyRepresentation,
    importing: @escaping @Sendable (ProxyRepresentation) throws -> Item
  ) {
    self.exporter = .sync(exporting)
    self.importer = { try importing($0) }
  }

  /// A representation that exports a value as a proxy value and imports it back, both
  /// asynchronously.
  ///
  /// ```swift
  /// ProxyRepresentation(
  ///   exporting: { await $0.archivedURL() },
  ///   importing: { try await Archive(url: $0) })
  /// ```
  ///
  /// - Parameters:
  ///   - exporting: Converts the value to the proxy.
  ///   - importing: Makes a value from the proxy.
  @available(*, deprecated, message: "A synchronous exporter should be used instead.")
  public init(
    exporting: @escaping @Sendable (Item) async throws -> ProxyRepresentation,
    importing: @escaping @Sendable (ProxyRepresentation) async throws -> Item
  ) {
    self.exporter = .async(exporting)
    self.importer = importing
  }

  /// A representation that exports a value as a proxy value and imports it back
  /// asynchronously.
  ///
  /// ```swift
  /// ProxyRepresentation(exporting: \.url, importing: { try await Video(downloading: $0) })
  /// ```
  ///
  /// - Parameters:
  ///   - exporting: Converts the value to the proxy.
  ///   - importing: Makes a value from the proxy.
  public init(
    exporting: @escaping @Sendable (Item) throws -> ProxyRepresentation,
    importing: @escaping @Sendable (ProxyRepresentation) async throws -> Item
  ) {
    self.exporter = .sync(exporting)
    self.importer = importing
  }
}

extension ProxyRepresentation {
  /// Never called: a built-in representation has no body.
  ///
  /// ```swift
  /// ProxyRepresentation<Profile, String>.Body.self == Never.self   // true
  /// ```
  public var body: Never {
    preconditionFailure("ProxyRepresentation has no body")
  }
}

/// How a proxy representation converts a value to its proxy.
enum ProxyExporter<Item, Proxy>: Sendable {
  case sync(@Sendable (Item) throws -> Proxy)
  case async(@Sendable (Item) async throws -> Proxy)
}

extension ProxyRepresentation: PrimitiveRepresentation {
  func entries() -> [RepresentationEntry<Item>] {
    ProxyRepresentation.representationEntries.compactMap { entry in
      entry.proxied(exporting: exporter, importing: importer)
    }
  }
}

extension RepresentationEntry {
  /// This entry of a proxy type, as an entry of the type `Outer` that converts through it;
  /// `nil` when neither direction is left.
  func proxied<Outer: Transferable>(
    exporting proxyExporter: ProxyExporter<Outer, Item>?,
    importing proxyImporter: (@Sendable (Item) async throws -> Outer)?
  ) -> RepresentationEntry<Outer>? {
    var outerExporter: EntryExporter<Outer>?
    if let proxyExporter, let exporter {
      outerExporter = exporter.proxied(by: proxyExporter)
    }
    var outerImporter: EntryImporter<Outer>?
    if let proxyImporter, let importer {
      switch importer {
      case .data(let importProxy):
        outerImporter = .data { data in try await proxyImporter(try await importProxy(data)) }
      case .file(let attempts, let importProxy):
        outerImporter = .file(attemptsOpeningInPlace: attempts) { file in
          try await proxyImporter(try await importProxy(file))
        }
      }
    }
    guard outerExporter != nil || outerImporter != nil else { return nil }
    return RepresentationEntry<Outer>(
      contentType: contentType, visibility: visibility,
      exporter: outerExporter, importer: outerImporter)
  }
}

extension EntryExporter {
  /// This exporter of a proxy type, as an exporter of the type `Outer` that converts to it.
  func proxied<Outer: Transferable>(by proxyExporter: ProxyExporter<Outer, Item>)
    -> EntryExporter<Outer>
  {
    let bind = self.bind
    switch proxyExporter {
    case .sync(let makeProxy):
      return EntryExporter<Outer>(
        isFileBacked: isFileBacked, allowsOpeningInPlace: allowsOpeningInPlace
      ) { outer in
        do {
          return bind(try makeProxy(outer))
        } catch {
          return .failed(error)
        }
      }
    case .async(let makeProxy):
      // The proxy exists only once the exporter has run, so its conditions and its file name
      // are known only then.
      let isFileBacked = self.isFileBacked
      return EntryExporter<Outer>(
        isFileBacked: isFileBacked, allowsOpeningInPlace: allowsOpeningInPlace
      ) { outer in
        let outer = UncheckedSendable(outer)
        let resolve: @Sendable () async throws -> ExportPayload = {
          switch bind(try await makeProxy(outer.value)) {
          case .available(let export): return export.payload
          case .conditionFalse: throw ExportingConditionFailure()
          case .failed(let error): throw error
          }
        }
        let payload: ExportPayload =
          isFileBacked
          ? .file { try await resolve().sentFile() }
          : .data { try await resolve().data() }
        return .available(BoundExport(payload: payload))
      }
    }
  }
}
