import UniformTypeIdentifiers

/// Turns a representation of one type into another type.
///
/// The pasteboard asks every registered converter what it can make of each stored type, and
/// chains converters (up to ``ConversionPlan/maximumSteps`` steps) to serve a type nobody
/// stored. Built-in converters handle text encodings and file lists; registered transferable
/// types and declaration files add more.
///
/// ```swift
/// struct UppercaseConverter: PasteboardConverter {
///   func outputs(from source: UTType) -> [UTType] {
///     source == .utf8PlainText ? [.shouting] : []
///   }
///   func convert(_ payload: PasteboardPayload, from source: UTType, to target: UTType)
///     async throws -> PasteboardPayload
///   {
///     .data(Data(String(decoding: try payload.data(), as: UTF8.self).uppercased().utf8))
///   }
/// }
/// ConverterRegistry.shared.register(UppercaseConverter())
/// ```
public protocol PasteboardConverter: Sendable {
  /// The types this converter can make from `source`, best first; empty when it cannot read
  /// `source`.
  func outputs(from source: UTType) -> [UTType]

  /// Converts `payload`, of type `source`, to `target` (one of ``outputs(from:)``).
  ///
  /// - Throws: Any error; the pasteboard reports it as
  ///   ``PasteboardError/conversionFailed(from:to:reason:)``.
  func convert(_ payload: PasteboardPayload, from source: UTType, to target: UTType)
    async throws -> PasteboardPayload
}
