import FoundationEssentials
import UniformTypeIdentifiers

/// One representation after flattening: a content type and the closures that convert an
/// `Item` to and from it.
///
/// Every representation flattens into a list of entries in declaration order: a built-in one
/// into one entry, a proxy into its proxy type's entries, a tuple or a `body` into its
/// children's. Modifiers rewrite the entries below them.
struct RepresentationEntry<Item: Transferable>: Sendable {
  var contentType: UTType
  /// The visibility set by the innermost `.visibility(_:)` modifier; `nil` means `.all`.
  var visibility: TransferRepresentationVisibility?
  var exporter: EntryExporter<Item>?
  var importer: EntryImporter<Item>?

  init(
    contentType: UTType, visibility: TransferRepresentationVisibility? = nil,
    exporter: EntryExporter<Item>?, importer: EntryImporter<Item>?
  ) {
    self.contentType = contentType
    self.visibility = visibility
    self.exporter = exporter
    self.importer = importer
  }

  /// The entry with its exporter rewritten; import-only entries are unchanged.
  func mapExporter(_ transform: (EntryExporter<Item>) -> EntryExporter<Item>) -> Self {
    var entry = self
    entry.exporter = exporter.map(transform)
    return entry
  }
}

/// The export half of an entry.
struct EntryExporter<Item: Transferable>: Sendable {
  /// Whether the payload is a file (a ``FileRepresentation`` underneath).
  var isFileBacked: Bool
  /// Whether the representation lets receivers open its files in place.
  var allowsOpeningInPlace: Bool
  /// Evaluates the exporting conditions (and synchronous proxies) for a value, and returns the
  /// lazy payload when the value can be exported this way.
  var bind: @Sendable (Item) -> ExportBinding

  /// The exporter, offered only for values that satisfy `condition`.
  func filtered(by condition: @escaping @Sendable (Item) -> Bool) -> Self {
    Self(
      isFileBacked: isFileBacked, allowsOpeningInPlace: allowsOpeningInPlace,
      bind: conditionalBinding(bind, condition))
  }

  /// The exporter, suggesting `name(item)` as the file name unless an inner modifier already
  /// did.
  func naming(_ name: @escaping @Sendable (Item) -> String?) -> Self {
    Self(
      isFileBacked: isFileBacked, allowsOpeningInPlace: allowsOpeningInPlace,
      bind: namedBinding(bind, name))
  }
}

// Free functions over an unconstrained `Value`, so that the closures capture no conformance.

/// `bind`, answering `.conditionFalse` for values where `condition` is false.
private func conditionalBinding<Value>(
  _ bind: @escaping @Sendable (Value) -> ExportBinding,
  _ condition: @escaping @Sendable (Value) -> Bool
) -> @Sendable (Value) -> ExportBinding {
  { value in condition(value) ? bind(value) : .conditionFalse }
}

/// `bind`, with `name(value)` as the suggested file name unless one is already set.
private func namedBinding<Value>(
  _ bind: @escaping @Sendable (Value) -> ExportBinding,
  _ name: @escaping @Sendable (Value) -> String?
) -> @Sendable (Value) -> ExportBinding {
  { value in
    let binding = bind(value)
    guard case .available(var export) = binding, export.suggestedFileName == nil else {
      return binding
    }
    export.suggestedFileName = name(value)
    return .available(export)
  }
}

/// What an exporter offers for one value.
enum ExportBinding: Sendable {
  /// The value exports this way; the payload runs when asked.
  case available(BoundExport)
  /// An exporting condition is false for the value.
  case conditionFalse
  /// A synchronous proxy exporter threw while the value was being bound.
  case failed(any Error)
}

/// A representation bound to one value: its suggested file name and its lazy payload.
struct BoundExport: Sendable {
  var suggestedFileName: String?
  var payload: ExportPayload
}

/// The bytes of a bound export, produced on request.
enum ExportPayload: Sendable {
  case data(@Sendable () async throws -> Data)
  case file(@Sendable () async throws -> SentTransferredFile)
}

/// The import half of an entry.
enum EntryImporter<Item: Transferable>: Sendable {
  case data(@Sendable (Data) async throws -> Item)
  case file(attemptsOpeningInPlace: Bool, @Sendable (ReceivedTransferredFile) async throws -> Item)

  var isFileBacked: Bool {
    if case .file = self { return true }
    return false
  }

  var attemptsOpeningInPlace: Bool {
    if case .file(let attempts, _) = self { return attempts }
    return false
  }
}

/// Thrown inside a payload when an exporting condition that could only be evaluated late (on
/// the value an asynchronous proxy exporter produced) turns out false.
struct ExportingConditionFailure: Error {}

extension ExportPayload {
  /// The payload's bytes; a file payload is read whole.
  func data() async throws -> Data {
    switch self {
    case .data(let produce): return try await produce()
    case .file(let produce): return try FileTransfer.readAll(try await produce().file)
    }
  }

  /// The payload's file; only file payloads have one.
  func sentFile() async throws -> SentTransferredFile {
    switch self {
    case .file(let produce): return try await produce()
    case .data: throw PayloadKindMismatch()
    }
  }
}

/// A proxy produced a data payload where its representation promised a file.
struct PayloadKindMismatch: Error, CustomStringConvertible {
  var description: String { "the representation produced data where it declared a file" }
}
