extension StringProtocol {
  /// The text without the white space and line ends around it (Unicode's `White_Space`).
  ///
  /// `trimmingCharacters(in: .whitespacesAndNewlines)` without full Foundation, which the
  /// command-line tools do not link (docs/log/2026-12-02-performance.md, "Command-line
  /// tools").
  package func trimmingWhitespace() -> String {
    guard let first = firstIndex(where: { !$0.isWhitespace }) else { return "" }
    let last = lastIndex(where: { !$0.isWhitespace })!
    return String(self[first...last])
  }
}
