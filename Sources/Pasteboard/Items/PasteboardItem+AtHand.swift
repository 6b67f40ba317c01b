extension PasteboardItem {
  /// This item as far as its bytes are at hand: the stored representations, and the lazy
  /// ones whose provider has already produced them in full, in the same order, with the same
  /// options; `nil` when none is (an item of no representations included).
  ///
  /// What a clipboard manager keeps of an item whose lazy representations read from a source
  /// that goes away (an X or Wayland owner that exits): what was read survives, what was not
  /// is gone for every reader. The item itself when every representation is at hand; else a
  /// new item that keeps this one alive, so the files its providers wrote to its spool stay.
  ///
  /// ```swift
  /// _ = try await item.data(for: .utf8PlainText)   // a lazy representation, read
  /// let kept = item.itemAtHand()                   // holds the text, without asking again
  /// ```
  public func itemAtHand() -> PasteboardItem? {
    let fetched = self.fetched.withLock { $0 }
    var kept: [PasteboardRepresentation] = []
    var nothingLazy = true
    for representation in representations {
      switch representation.provider {
      case .payload:
        kept.append(representation)
      case .lazy:
        if let payload = fetched[representation.type] {
          kept.append(
            PasteboardRepresentation(
              type: representation.type, provider: .payload(payload), keeps: self))
        }
        nothingLazy = false
      }
    }
    guard !kept.isEmpty else { return nil }
    if nothingLazy { return self }
    return PasteboardItem(
      representations: kept, options: options, expirationDate: expirationDate,
      converters: converters, ownerNames: ownerNames)
  }
}
