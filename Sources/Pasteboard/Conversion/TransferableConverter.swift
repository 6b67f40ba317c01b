import CoreTransferable
import FoundationEssentials
import UniformTypeIdentifiers

/// Converts through a registered transferable type: imports the value from a stored
/// representation, exports the requested one.
///
/// This is how a profile's JSON becomes the profile's name for a text reader: `Profile`
/// imports `com.example.profile` and exports `public.utf8-plain-text` through its proxy.
///
/// ```swift
/// ConverterRegistry.shared.register(Profile.self)
/// ```
///
/// The outputs are the type's exported content types; an exporting condition that turns out
/// false for the imported value fails that one request with a clear error.
public struct TransferableConverter<Value: Transferable>: PasteboardConverter {
  /// Creates a converter for `Value`.
  public init(_ type: Value.Type = Value.self) {}

  /// The exported types of `Value` when it can import `source`; else none.
  public func outputs(from source: UTType) -> [UTType] {
    guard Value.transferImporters().contains(where: { source.conforms(to: $0.contentType) })
    else { return [] }
    return Value.exportedContentTypes(visibility: .all).filter { $0 != source }
  }

  /// Imports a value from `payload` and exports it as `target`.
  ///
  /// - Throws: `TransferError` when the import or the export fails.
  public func convert(_ payload: PasteboardPayload, from source: UTType, to target: UTType)
    async throws -> PasteboardPayload
  {
    var lastError: (any Error)?
    for importer in Value.transferImporters() where source.conforms(to: importer.contentType) {
      let value: Value
      do {
        switch payload {
        case .data(let data): value = try await importer.importing(data, contentType: source)
        case .file(let url):
          value = try await importer.importing(
            file: url, contentType: source, allowsOpeningInPlace: false)
        }
      } catch {
        lastError = error
        continue
      }
      guard let export = value.transferExport(accepting: [target], visibleTo: .all) else {
        throw ConversionRefusal(
          reason: "\(Value.self) does not export \(target.identifier) for this value")
      }
      if export.isFileBacked {
        let directory = FileManager.default.temporaryDirectory
          .appendingPathComponent("ferry-convert-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return .file(try await export.file(in: directory).file)
      }
      return .data(try await export.data())
    }
    throw lastError ?? ConversionRefusal(reason: "\(Value.self) cannot import \(source.identifier)")
  }
}

/// A converter's refusal, with its reason.
struct ConversionRefusal: Error, CustomStringConvertible {
  var reason: String
  var description: String { reason }
}

extension ConverterRegistry {
  /// Registers a transferable type: pasteboards then convert what it imports into what it
  /// exports.
  ///
  /// ```swift
  /// ConverterRegistry.shared.register(Profile.self)
  /// ```
  public func register<Value: Transferable>(_ type: Value.Type) {
    register(TransferableConverter(type))
  }
}
