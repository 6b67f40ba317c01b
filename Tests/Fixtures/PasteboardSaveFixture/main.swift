// A process that saves a pasteboard document, for the crash tests of `PasteboardTests`
// (`DocumentCrashTests`), which kill it with SIGKILL in the middle of the save.
//
//     PasteboardSaveFixture <document> <payload-file> (stall | complete)
//
// It saves one item to <document>: <payload-file> as `public.mpeg-4` (copied by the kernel
// into the staging directory), then the text "replacement" as `public.utf8-plain-text`,
// produced lazily. It writes "saving" on its own line, unbuffered, right before the save starts.
//
// - stall: the text's provider never returns, so the process stays in the middle of the
//   save, after the large file is copied and before anything is swapped in, until killed.
// - complete: the save runs to the end; the process prints "saved" and exits 0.
//
// Any failure prints one line on stderr and exits 1.

import Foundation
import Pasteboard
import UniformTypeIdentifiers

let arguments = CommandLine.arguments
guard arguments.count == 4, ["stall", "complete"].contains(arguments[3]) else {
  FileHandle.standardError.write(
    Data("usage: PasteboardSaveFixture <document> <payload-file> (stall | complete)\n".utf8))
  exit(2)
}
let document = URL(fileURLWithPath: arguments[1])
let payload = URL(fileURLWithPath: arguments[2])
let stalls = arguments[3] == "stall"

let item = PasteboardItem(representations: [
  .file(payload, type: .mpeg4Movie),
  .lazy(.utf8PlainText, timeLimit: .seconds(24 * 3600)) {
    if stalls {
      while true { try await Task.sleep(for: .seconds(3600)) }
    }
    return .data(Data("replacement".utf8))
  },
])

FileHandle.standardOutput.write(Data("saving\n".utf8))
do {
  try await PasteboardDocument(items: [item]).save(to: document)
  FileHandle.standardOutput.write(Data("saved\n".utf8))
} catch {
  FileHandle.standardError.write(Data("PasteboardSaveFixture: \(error)\n".utf8))
  exit(1)
}
