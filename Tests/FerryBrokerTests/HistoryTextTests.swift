import FerryCommandLine
import Testing

/// How `ferry history` writes entries on one line, and reads a menu line back.
@Suite struct HistoryTextTests {
  @Test(arguments: [
    (0.4, "0s ago"), (59, "59s ago"), (190, "3m ago"), (7_300, "2h ago"), (400_000, "4d ago"),
    (-5, "0s ago"),
  ])
  func agesAreInTheLargestWholeUnit(seconds: Double, text: String) {
    #expect(HistoryText.age(seconds: seconds) == text)
  }

  @Test func controlCharactersAreEscapedOnOneLine() {
    #expect(HistoryText.oneLine("a\tb\nc\r\nd\re", limit: 80) == #"a\tb\nc\nd\re"#)
    #expect(HistoryText.oneLine("bell\u{7}esc\u{1B}[31m", limit: 80) == #"bell\u{7}esc\u{1B}[31m"#)
    #expect(HistoryText.oneLine("rtl\u{202E}txt\u{2028}", limit: 80) == #"rtl\u{202E}txt\u{2028}"#)
    #expect(
      HistoryText.oneLine("Grüße 👨‍👩‍👧", limit: 80) == "Grüße 👨‍👩‍👧", "letters and emoji stay as they are")
  }

  @Test func aLongLineIsCutWithAnEllipsis() {
    #expect(HistoryText.oneLine("abcdef", limit: 6) == "abcdef")
    #expect(HistoryText.oneLine("abcdefg", limit: 6) == "abcdef…")
    #expect(HistoryText.oneLine("abcde\n", limit: 6) == "abcde…", "an escape is never cut in half")
  }

  @Test func anEntryWithoutTextShowsItsTypeAndSize() {
    #expect(
      HistoryText.summary(
        preview: nil, types: ["public.png", "public.tiff"], size: 12_595, limit: 80)
        == "[public.png, 12.3 KiB]")
    #expect(HistoryText.size(512) == "512 B")
    #expect(HistoryText.size(5 << 20) == "5.0 MiB")
  }

  @Test func aMenuLineIsTheIDATabAndABoundedPreview() throws {
    #expect(
      HistoryText.menuLine(id: 12, preview: "two\nlines", types: [], size: 9) == "12\ttwo\\nlines")
    let long = HistoryText.menuLine(
      id: 3, preview: String(repeating: "x", count: 500), types: [], size: 500)
    #expect(long.count == "3\t".count + HistoryText.menuPreviewLimit + 1)
    #expect(try HistoryText.entryID(fromMenuLine: "12\ttwo\\nlines") == 12)
    #expect(try HistoryText.entryID(fromMenuLine: " 7 \tpadded") == 7)
    #expect(try HistoryText.entryID(fromMenuLine: "42") == 42, "a bare id is a line too")
  }

  @Test(arguments: ["", "abc", "-3", "1.5", "12abc", "\tpreview only", "99999999999999999999"])
  func aMalformedIDIsAUsageError(text: String) {
    #expect(throws: CommandFailure.self) { try HistoryText.entryID(fromMenuLine: text) }
    do {
      _ = try HistoryText.entryID(text)
      Issue.record("\(text) was taken as an id")
    } catch let failure as CommandFailure {
      #expect(failure.status == .usage)
      #expect(!failure.message.contains("\n"))
    } catch {
      Issue.record("\(error)")
    }
  }
}
