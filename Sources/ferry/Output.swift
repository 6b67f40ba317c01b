import FerrySystem
import JSONText

/// What the commands write, without full Foundation (`FileHandle`, `JSONSerialization`,
/// `padding(toLength:)`), which would bring ICU's 30 MB into `ferry` (docs/PERFORMANCE.md,
/// "Size").
enum Output {
  /// Writes `bytes` to standard output at once, every byte (interrupted and short writes
  /// retried); a closed output loses them, as `FileHandle.write` did.
  static func write(_ bytes: some Collection<UInt8>) {
    write(bytes, to: .standardOutput)
  }

  /// Writes `text` to standard output at once.
  static func write(_ text: String) { write(Array(text.utf8)) }

  /// Writes `text` to standard error at once.
  static func writeError(_ text: String) { write(Array(text.utf8), to: .standardError) }

  private static func write(_ bytes: some Collection<UInt8>, to descriptor: FileDescriptor) {
    if bytes.isEmpty { return }
    let written: Void? = bytes.withContiguousStorageIfAvailable { buffer in
      try? descriptor.writeAll(from: UnsafeRawBufferPointer(buffer))
    }
    if written == nil {
      let copy = Array(bytes)
      copy.withUnsafeBytes { _ = try? descriptor.writeAll(from: $0) }
    }
  }

  /// `value` as one line of JSON as `JSONSerialization` wrote it with `.sortedKeys` and
  /// `.withoutEscapingSlashes`: every object's keys in order (letters compared without case
  /// first), no space.
  static func json(_ value: CompactJSON) -> String {
    String(decoding: sortingKeys(value).serialized, as: UTF8.self)
  }

  private static func sortingKeys(_ value: CompactJSON) -> CompactJSON {
    switch value {
    case .array(let values): return .array(values.map(sortingKeys))
    case .object(let members):
      return .object(
        members.map { ($0.0, sortingKeys($0.1)) }.sorted { a, b in
          let (x, y) = (a.0.lowercased(), b.0.lowercased())
          return x != y ? x < y : a.0 < b.0
        })
    default: return value
    }
  }

  /// `text` cut or padded with spaces to `width` characters.
  static func padded(_ text: String, to width: Int) -> String {
    let count = text.count
    if count >= width { return String(text.prefix(width)) }
    return text + String(repeating: " ", count: width - count)
  }
}

extension CompactJSON {
  /// A number as `JSONSerialization` wrote a `Double`: its shortest form, without a
  /// trailing `.0` (`5`, `0.25`).
  static func double(_ value: Double) -> CompactJSON {
    var text = "\(value)"
    if text.hasSuffix(".0") { text.removeLast(2) }
    return .number(text)
  }

  /// Strings as an array.
  static func strings(_ values: some Sequence<String>) -> CompactJSON {
    .array(values.map(CompactJSON.string))
  }
}
