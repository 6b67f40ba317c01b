import Testing

@testable import FerryCommandLine

/// `pbcopy` and `pbpaste` read their common command lines without the argument parser (it
/// costs start-up time); what they make of them must be what the parser makes, and anything
/// unusual must go to the parser.
@Suite struct QuickParseTests {
  static let pasteLines: [[String]] = [
    [], ["-pboard", "primary"], ["-pboard", "find"], ["-Prefer", "rtf"], ["-Prefer", "ps"],
    ["--type", "image/png"], ["--list-types"], ["--timeout", "0.5"],
    ["-pboard", "primary", "--type", "com.example.profile", "--timeout", "2", "--list-types"],
  ]

  @Test(arguments: pasteLines)
  func pbpasteAgreesWithTheParser(_ arguments: [String]) throws {
    let quick = try #require(try PBPaste.quickParse(arguments))
    #expect(quick == (try PBPaste.parse(arguments)).invocation)
  }

  @Test(arguments: [
    ["--help"], ["-h"], ["-Prefer", "doc"], ["--timeout", "soon"], ["--timeout", "-1"], ["--type"],
    ["extra"], ["--list-types=yes"], ["--pboard", "find"],
  ])
  func pbpasteLeavesTheRestToTheParser(_ arguments: [String]) throws {
    #expect(try PBPaste.quickParse(arguments) == nil)
  }

  static let copyLines: [[String]] = [
    [], ["-"], ["notes.txt"], ["-pboard", "primary"], ["--type", "png", "picture"], ["--sensitive"],
    ["-pboard", "secrets", "--sensitive", "--type", "text", "-"], ["--osc52"],
    ["--osc52", "notes.txt"],
  ]

  @Test(arguments: copyLines)
  func pbcopyAgreesWithTheParser(_ arguments: [String]) throws {
    let quick = try #require(try PBCopy.quickParse(arguments))
    #expect(quick == (try PBCopy.parse(arguments)).invocation)
  }

  @Test(arguments: [
    ["--help"], ["-x"], ["one", "two"], ["--type"], ["-pboard"], ["--sensitive=1"],
  ])
  func pbcopyLeavesTheRestToTheParser(_ arguments: [String]) throws {
    #expect(try PBCopy.quickParse(arguments) == nil)
  }
}
