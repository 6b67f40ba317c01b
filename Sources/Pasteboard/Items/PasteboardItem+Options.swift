extension PasteboardItem {
  /// How an item may be kept and shown.
  ///
  /// ```swift
  /// PasteboardItem(representations: [.data(secret, type: .utf8PlainText)], options: .concealed)
  /// ```
  public struct Options: OptionSet, Hashable, Sendable, Codable {
    /// The raw bits.
    public let rawValue: Int

    /// Creates options from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Sensitive content (a password): served to readers, never written to disk, to history
    /// or to watch output. The convention of `org.nspasteboard.ConcealedType` and KDE's
    /// `x-kde-passwordManagerHint: secret`.
    public static let concealed = Options(rawValue: 1 << 0)
    /// Temporary content that history should not record (`org.nspasteboard.TransientType`).
    public static let transient = Options(rawValue: 1 << 1)
    /// Content that stays on this machine: never synchronized elsewhere.
    public static let currentHostOnly = Options(rawValue: 1 << 2)
  }
}

extension PasteboardItem.Options {
  /// The options that marker types among `representations` ask for: the nspasteboard.org
  /// concealed and transient markers, and KDE's password-manager hint when its value is
  /// `secret`.
  init(markedBy representations: [PasteboardRepresentation]) {
    self = []
    for representation in representations {
      switch representation.type {
      case .concealedMarker: insert(.concealed)
      case .transientMarker: insert(.transient)
      case .passwordManagerHint:
        if case .payload(.data(let value)) = representation.provider,
          String(decoding: value, as: UTF8.self).trimmingWhitespace()
            == "secret"
        {
          insert(.concealed)
        }
      default: break
      }
    }
  }
}
