import Foundation
import Pasteboard
import UniformTypeIdentifiers
import X11Selections

/// `X11Benchmark --serve file|memory PATH [CHUNK]` or `--serve text PATH`: Ferry's owner
/// serving `CLIPBOARD` on `$DISPLAY` until the process is ended, as the broker serves a
/// copy — a file as `application/octet-stream`, streamed from the file (as the broker's
/// spooled copies) or read into memory first (as xclip does), in INCR chunks of `CHUNK`
/// bytes if given; or a text as `UTF8_STRING`, from memory.
enum ServeMode {
  static let flag = "--serve"

  static func run(_ arguments: [String]) async throws -> Never {
    let usage = BenchmarkError("usage: X11Benchmark --serve file|memory|text PATH [CHUNK]")
    guard arguments.count == 2 || arguments.count == 3 && arguments[0] != "text" else {
      throw usage
    }
    let url = URL(fileURLWithPath: arguments[1])
    let representation: PasteboardRepresentation
    switch arguments[0] {
    case "file": representation = .file(url, type: .data)
    case "memory": representation = .data(try Data(contentsOf: url), type: .data)
    case "text": representation = .data(try Data(contentsOf: url), type: .utf8PlainText)
    default: throw usage
    }
    let display = try X11Display()
    if arguments.count == 3, let chunk = Int(arguments[2]), chunk > 0 {
      await display.setServingChunkBytes(chunk)
    }
    try await display.own(.clipboard, item: PasteboardItem(representations: [representation]))
    while true {
      try await Task.sleep(for: .seconds(3600))
    }
  }
}
