import FerryConfiguration
import Foundation
import Testing

/// docs/CONFIGURATION.md shows the template `ferry config --template` prints, key for key.
@Suite struct ConfigurationDocumentTests {
  @Test func theDocumentShowsTheTemplateAsPrinted() throws {
    let document = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("docs/CONFIGURATION.md")
    let text = try String(contentsOf: document, encoding: .utf8)
    let block = try #require(text.range(of: "```yaml\n"), "the document has a YAML block")
    let end = try #require(text.range(of: "```", range: block.upperBound..<text.endIndex))
    #expect(String(text[block.upperBound..<end.lowerBound]) == ConfigurationTemplate.text)
    for key in ConfigurationKey.all {
      #expect(
        text.contains("`\(key.name)`") || text.contains("`\(key.section ?? "")."), "\(key.name)")
    }
  }
}
