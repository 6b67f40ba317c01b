// Reads the clipboard history through the broker from Swift: the newest entries with their
// types, then one entry's text (or the first entry matching a search).
//
//   swift run --package-path Examples HistoryReader                # the five newest entries,
//                                                                  # and the newest one's text
//   swift run --package-path Examples HistoryReader release notes  # the newest entry whose
//                                                                  # text has these words
//
// `ferry history` does the same from a shell (docs/HISTORY.md).

import FerryClient
import Foundation

/// Prints the entries, then the newest one's text; `false` when there is none.
func printEntries(matching words: String) throws(BrokerClientError) -> Bool {
  let client = try BrokerClient.connect(clientName: "HistoryReader")
  let entries =
    words.isEmpty ? try client.historyList(limit: 5) : try client.historySearch(words, limit: 1)
  for entry in entries {
    print("\(entry.id)\t\(entry.types.joined(separator: ", "))\t\(entry.preview ?? "")")
  }
  guard let newest = entries.first else { return false }
  let (_, text) = try client.historyShow(newest.id, types: ["public.utf8-plain-text"])
  print(String(decoding: text, as: UTF8.self))
  return true
}

let words = CommandLine.arguments.dropFirst().joined(separator: " ")
do {
  if try !printEntries(matching: words) {
    FileHandle.standardError.write(
      Data("HistoryReader: no entry\(words.isEmpty ? "" : " matches '\(words)'")\n".utf8))
    exit(1)
  }
} catch {
  // One line, and the statuses `ferry` uses (README.md, "Exit status").
  FileHandle.standardError.write(Data("HistoryReader: \(error)\n".utf8))
  exit(error.code == .noBroker ? 3 : 6)
}
