import FoundationEssentials
import UniformTypeIdentifiers

extension Transferable {
  /// This value's exports, in declaration order, with proxies expanded in place and exporting
  /// conditions evaluated for this value; one per content type (the first), limited to what
  /// `audience` may see.
  ///
  /// Listing runs the exporting conditions and synchronous proxy exporters, nothing else.
  ///
  /// ```swift
  /// profile.transferExports().map(\.contentType)
  /// // [com.example.profile, public.utf8-plain-text, public.plain-text]
  /// ```
  ///
  /// Package API, for the `Pasteboard` module.
  ///
  /// - Parameter audience: Who is asking; `.ownProcess` (the default) sees every export.
  package func transferExports(visibleTo audience: TransferRepresentationVisibility = .ownProcess)
    -> [TransferExport]
  {
    var seen = Set<UTType>()
    var exports: [TransferExport] = []
    for entry in Self.representationEntries {
      guard let exporter = entry.exporter, (entry.visibility ?? .all).isVisible(to: audience),
        !seen.contains(entry.contentType),
        case .available(let bound) = exporter.bind(self)
      else { continue }
      seen.insert(entry.contentType)
      exports.append(export(of: entry, bound))
    }
    return exports
  }

  /// The importers of this type, in declaration order, with proxies expanded in place.
  ///
  /// ```swift
  /// String.transferImporters().map(\.contentType)   // [public.utf8-plain-text, public.plain-text]
  /// ```
  ///
  /// Package API, for the `Pasteboard` module.
  package static func transferImporters() -> [TransferImporter<Self>] {
    representationEntries.compactMap { entry in
      entry.importer.map { TransferImporter(contentType: entry.contentType, importer: $0) }
    }
  }

  /// The export a receiver that supports `types` takes: the first of
  /// ``transferExports(visibleTo:)`` whose content type conforms to one of them.
  ///
  /// ```swift
  /// profile.transferExport(accepting: [.profile])?.contentType     // com.example.profile
  /// profile.transferExport(accepting: [.plainText])?.contentType   // public.utf8-plain-text
  /// ```
  ///
  /// Package API, for the `Pasteboard` module.
  package func transferExport(
    accepting types: [UTType], visibleTo audience: TransferRepresentationVisibility = .ownProcess
  ) -> TransferExport? {
    transferExports(visibleTo: audience).first { export in
      types.contains { export.contentType.conforms(to: $0) }
    }
  }

  /// Transfers this value to a receiver of type `Receiver`, as a paste or a drop does: the
  /// first export whose content type conforms to one of the receiver's importers, through the
  /// first such importer.
  ///
  /// ```swift
  /// let name = try await profile.transferred(as: String.self)   // "Juan"
  /// let copy = try await video.transferred(as: Video.self)      // a kernel copy of the movie
  /// ```
  ///
  /// Package API, for the `Pasteboard` module.
  ///
  /// - Throws: ``TransferError`` (`.noSuchRepresentation` when no export fits the receiver)
  ///   or `CancellationError`.
  package func transferred<Receiver: Transferable>(
    as receiverType: Receiver.Type = Receiver.self,
    visibleTo audience: TransferRepresentationVisibility = .ownProcess
  ) async throws -> Receiver {
    let importers = Receiver.transferImporters()
    for export in transferExports(visibleTo: audience) {
      if let importer = importers.first(where: { export.contentType.conforms(to: $0.contentType) })
      {
        return try await importer.importing(export)
      }
    }
    throw TransferError(
      .noSuchRepresentation, .export, typeName: Self.transferTypeName, contentType: nil)
  }

  /// The first export matching `contentType` (any, when `nil`) that is available for this
  /// value, or the reason there is none.
  func firstExport(matching contentType: UTType?) throws -> TransferExport {
    var unavailable: TransferError?
    for (entry, binding) in exportBindings(matching: contentType) {
      switch binding {
      case .available(let bound):
        return export(of: entry, bound)
      case .conditionFalse:
        unavailable =
          unavailable
          ?? TransferError(
            .exportingConditionFalse, .export, typeName: Self.transferTypeName,
            contentType: contentType ?? entry.contentType)
      case .failed(let error):
        unavailable =
          unavailable
          ?? TransferError(
            .exportFailed, .export, typeName: Self.transferTypeName,
            contentType: contentType ?? entry.contentType, underlyingError: error)
      }
    }
    throw unavailable
      ?? TransferError(
        .noSuchRepresentation, .export, typeName: Self.transferTypeName, contentType: contentType)
  }

  /// The export-capable entries whose content type conforms to `contentType` (all, when
  /// `nil`), each bound to this value when the sequence reaches it.
  func exportBindings(matching contentType: UTType?)
    -> some Sequence<(RepresentationEntry<Self>, ExportBinding)>
  {
    Self.representationEntries.lazy.compactMap { entry in
      guard let exporter = entry.exporter else { return nil }
      if let contentType, !entry.contentType.conforms(to: contentType) { return nil }
      return (entry, exporter.bind(self))
    }
  }

  private func export(of entry: RepresentationEntry<Self>, _ bound: BoundExport) -> TransferExport {
    TransferExport(
      contentType: entry.contentType, visibility: entry.visibility ?? .all,
      allowsOpeningInPlace: entry.exporter?.allowsOpeningInPlace ?? false,
      typeName: Self.transferTypeName, export: bound)
  }
}
