import Foundation

/// A temporary directory for one test, removed by ``remove()``.
struct Scratch {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("CoreTransferableTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  /// Writes `contents` to a new file named `name`.
  func file(_ name: String, contents: Data) throws -> URL {
    let file = url.appendingPathComponent(name)
    try contents.write(to: file)
    return file
  }

  func remove() {
    try? FileManager.default.removeItem(at: url)
  }
}

/// Whether anything exists at `url`.
func exists(_ url: URL) -> Bool {
  FileManager.default.fileExists(atPath: url.path)
}

/// A value's bytes as UTF-8 text, for readable expectations.
func text(_ data: Data) -> String {
  String(decoding: data, as: UTF8.self)
}
