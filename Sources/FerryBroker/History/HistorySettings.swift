import ClipboardHistory

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What the daemon's history records and keeps: daemon flags and `FERRY_HISTORY*`
/// environment variables (docs/HISTORY.md).
public struct HistorySettings: Sendable, Equatable {
  /// Whether the history is kept at all.
  public var enabled: Bool
  /// Whether changes of `primary` are recorded (off: selecting words floods a history).
  public var recordsPrimary: Bool
  /// The store's limits: entries, total bytes, bytes per item.
  public var limits: HistoryLimits
  /// Sources whose copies are never recorded (an application's `WM_CLASS`, a client's name),
  /// compared without case.
  public var ignoredSources: [String]

  /// Creates settings; the defaults keep `general` only, within ``HistoryLimits``' defaults.
  public init(
    enabled: Bool = true, recordsPrimary: Bool = false, limits: HistoryLimits = HistoryLimits(),
    ignoredSources: [String] = []
  ) {
    self.enabled = enabled
    self.recordsPrimary = recordsPrimary
    self.limits = limits
    self.ignoredSources = ignoredSources
  }

  /// Whether copies from `source` are left out of the history.
  func ignores(_ source: String?) -> Bool {
    guard let source else { return false }
    let folded = source.lowercased()
    return ignoredSources.contains { $0.lowercased() == folded }
  }

  /// The pasteboards recorded.
  var recordedPasteboards: [String] { recordsPrimary ? ["general", "primary"] : ["general"] }
}
