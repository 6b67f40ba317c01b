import UniformTypeIdentifiers

/// Turns a representation of one type into another type.
///
/// The pasteboard asks every registered converter what it can make of each stored type, and
/// chains converters (up to `ConversionPlan.maximumSteps`, three) to serve a type nobody
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

  /// Converts `payload` as ``convert(_:from:to:)`` does, writing an output too large for memory
  /// into a file of `spool` (the item's, removed with it). The default ignores the spool.
  ///
  /// - Throws: Any error, as ``convert(_:from:to:)``.
  func convert(
    _ payload: PasteboardPayload, from source: UTType, to target: UTType, spool: ConversionSpool
  ) async throws -> PasteboardPayload
}

extension PasteboardConverter {
  /// Converts in memory, as ``convert(_:from:to:)``.
  public func convert(
    _ payload: PasteboardPayload, from source: UTType, to target: UTType, spool: ConversionSpool
  ) async throws -> PasteboardPayload {
    try await convert(payload, from: source, to: target)
  }
}
