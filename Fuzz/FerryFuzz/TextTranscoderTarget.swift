import FoundationEssentials

@testable import Pasteboard

/// `TextTranscoder`, which writes through unsafe pointers: any bytes in any of its input
/// encodings to any output, fed whole and in pieces cut where the input says. The same
/// output and the same outcome both ways; valid UTF-8 written as UTF-16 or UTF-8 is what the
/// standard library makes of it.
let textTranscoderTarget = FuzzTarget(name: "text-transcoder") { bytes in
  guard bytes.count >= 2 else { return }
  let inputs: [TextTranscoder.Input] = [.utf8, .latin1, .utf16]
  let outputs: [TextTranscoder.Output] = [
    .utf8, .latin1, .utf16LittleEndian(byteOrderMark: false),
    .utf16LittleEndian(byteOrderMark: true), .escaped(.latin1), .escaped(.asciiCRLF), .none,
  ]
  let input = inputs[Int(bytes[0]) % inputs.count]
  let output = outputs[Int(bytes[0] / 3) % outputs.count]
  let step = Int(bytes[1]) % 7 + 1
  let text = Array(bytes[2...])

  func transcode(inPiecesOf size: Int) -> (bytes: [UInt8], failed: Bool) {
    var transcoder = TextTranscoder(from: input, to: output)
    var written: [UInt8] = []
    do {
      var start = 0
      while start < text.count {
        let end = min(start + size, text.count)
        try text[start..<end].withUnsafeBytes { piece in
          try transcoder.feed(piece) { written.append(contentsOf: $0) }
        }
        start = end
      }
      try transcoder.finish { written.append(contentsOf: $0) }
      return (written, false)
    } catch {
      transcoder.release()
      return (written, true)
    }
  }

  let whole = transcode(inPiecesOf: max(text.count, 1))
  let pieces = transcode(inPiecesOf: step)
  require(whole.failed == pieces.failed, "fed in pieces of \(step), the outcome changes")
  if !whole.failed {
    require(whole.bytes == pieces.bytes, "fed in pieces of \(step), the output changes")
  }
  guard input == .utf8, let string = String(validating: text, as: UTF8.self) else { return }
  switch output {
  case .utf8:
    require(!whole.failed && whole.bytes == text, "valid UTF-8 is not written back as it was")
  case .utf16LittleEndian(let mark):
    let units = (mark ? [UInt16(0xFEFF)] : []) + Array(string.utf16)
    let expected = units.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8($0 >> 8)] }
    require(!whole.failed && whole.bytes == expected, "valid UTF-8 is written as other UTF-16")
  default:
    break
  }
}
