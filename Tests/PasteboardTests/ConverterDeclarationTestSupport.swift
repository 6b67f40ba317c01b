import Foundation
import Pasteboard
import Testing
import UniformTypeIdentifiers

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A directory of its own under the temporary directory, for declaration files and scripts;
/// removed by ``remove()``.
struct ConverterScratch {
  let directory: URL

  init(_ label: String = #function) throws {
    let name = label.filter { $0.isLetter || $0.isNumber }
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("ferry-converters-\(name)-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  /// Writes `text` to `name` in the directory and returns its path.
  @discardableResult
  func write(_ text: String, to name: String, executable: Bool = false) throws -> String {
    // Close-on-exec, so a program another test spawns meanwhile does not hold the file open
    // for writing (which makes running it fail with ETXTBSY).
    let path = directory.appendingPathComponent(name).path
    let descriptor = open(
      path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, executable ? 0o755 : 0o644)
    guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
    defer { close(descriptor) }
    let bytes = Array(text.utf8)
    guard bytes.isEmpty || Glibc.write(descriptor, bytes, bytes.count) == bytes.count else {
      throw CocoaError(.fileWriteUnknown)
    }
    return path
  }

  /// Writes a declaration file of `object` (JSON) and returns its path.
  func declarations(_ object: [String: Any], name: String = "declarations.json") throws -> String {
    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    return try write(String(decoding: data, as: UTF8.self), to: name)
  }

  func remove() {
    try? FileManager.default.removeItem(at: directory)
  }
}

/// Declarations of one JSON type, `identifier`, conforming to `public.json`.
func exportedJSONType(_ identifier: String) -> [String: Any] {
  [
    "UTExportedTypeDeclarations": [
      ["UTTypeIdentifier": identifier, "UTTypeConformsTo": ["public.json"]]
    ]
  ]
}

/// A fresh identifier in the example namespace, so tests in parallel never share a type.
func freshExampleIdentifier(_ label: String = #function) -> String {
  let name = label.lowercased().filter { $0.isLetter || $0.isNumber }.prefix(40)
  return "com.example.converter-test.\(name)-\(UUID().uuidString.prefix(8).lowercased())"
}

/// A pasteboard with the registry's converters, holding one item of `data` as `type`.
func declarationPasteboard(
  _ registry: ConverterRegistry, holding data: Data, as type: UTType, label: String = #function
) -> Pasteboard {
  let board = Pasteboard(
    name: Pasteboard.Name(rawValue: "test-\(label)-\(UUID().uuidString)"), converters: registry)
  board.write([PasteboardItem(representations: [.data(data, type: type)], converters: registry)])
  return board
}

/// Whether no process with `pid` exists any more: it was killed and reaped. A zombie still
/// exists, so this fails for a child we forgot to reap.
func processIsGone(_ pid: Int32) -> Bool {
  kill(pid, 0) == -1 && errno == ESRCH
}

/// Whether `pid` is gone or a zombie (dead, waiting for a parent that is not us).
func processIsDead(_ pid: Int32) -> Bool {
  if processIsGone(pid) { return true }
  guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
    let close = stat.lastIndex(of: ")")
  else { return true }
  return stat[close...].dropFirst(2).first == "Z"
}

/// UTF-8 text of `data`.
func utf8Text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

/// The repository's `Examples/Declarations` directory.
let exampleDeclarations = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Examples/Declarations")
