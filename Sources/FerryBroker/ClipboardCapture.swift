import Foundation
import Logging
import Pasteboard
import UniformTypeIdentifiers
import X11Selections

/// Copies what an X client offers on a selection into a pasteboard item.
///
/// Reads `TARGETS`, then each data target in the owner's order, skipping meta targets and
/// text aliases that conversions reproduce (with `UTF8_STRING` in hand, `STRING`, `TEXT`,
/// `COMPOUND_TEXT` and `text/plain` are served from it). Targets that do not fit in the byte
/// budget stay as lazy representations that read from the owner while it lives.
struct ClipboardCapture: Sendable {
  /// Targets that describe a selection rather than carry its data.
  static let metaTargets: Set<String> = [
    "TARGETS", "MULTIPLE", "TIMESTAMP", "DELETE", "INSERT_SELECTION", "INSERT_PROPERTY",
    "SAVE_TARGETS", "INCR", "TARGET_SIZES",
  ]
  /// Text targets that the UTF-8 text reproduces.
  static let textAliases: Set<String> = ["STRING", "TEXT", "COMPOUND_TEXT", "text/plain"]

  /// One captured target.
  struct Captured: Sendable {
    var target: String
    var type: UTType
    var data: Data?
  }

  let display: X11Display
  let selection: String
  /// How much data one capture may hold.
  let byteBudget: Int
  let logger: Logger

  /// Reads the owner's targets (all of them, or those in `only`), in its order.
  ///
  /// - Returns: The captured targets; those over the budget have no data.
  /// - Throws: ``X11Error`` when `TARGETS` cannot be read.
  func capture(only: [String]? = nil) async throws -> [Captured] {
    let offered = try await display.targets(of: selection, stepTimeout: .seconds(2))
    var targets = offered.filter { !Self.metaTargets.contains($0) }
    if let only { targets = targets.filter { only.contains($0) } + only.filter { !offered.contains($0) && !Self.metaTargets.contains($0) } }
    let hasUTF8 = targets.contains("UTF8_STRING") || targets.contains("text/plain;charset=utf-8")
    var captured: [Captured] = []
    var seen = Set<UTType>()
    var remaining = byteBudget
    for target in targets {
      if hasUTF8 && Self.textAliases.contains(target) { continue }
      guard let type = UTType(tag: target, tagClass: .x11Target, conformingTo: nil), seen.insert(type).inserted
      else { continue }
      do {
        let reply = try await display.read(selection, target: target, stepTimeout: .seconds(2), byteLimit: remaining)
        remaining -= reply.byteCount
        var data = reply.data
        if reply.type == "COMPOUND_TEXT" || (reply.type == "STRING" && type != .latin1PlainText) {
          data = Data(try await display.decodeText(reply).utf8)
        }
        captured.append(Captured(target: target, type: type, data: data))
      } catch X11Error.tooLarge {
        captured.append(Captured(target: target, type: type, data: nil))
      } catch {
        logger.debug("capture of \(selection) \(target) failed: \(error)")
      }
    }
    return captured
  }

  /// An item holding `captured`: data as it was read; targets without data read from the
  /// owner on request when `live`, left out otherwise.
  func item(from captured: [Captured], live: Bool) -> PasteboardItem {
    let display = self.display
    let selection = self.selection
    let representations: [PasteboardRepresentation] = captured.compactMap { entry in
      if let data = entry.data { return .data(data, type: entry.type) }
      guard live else { return nil }
      let target = entry.target
      return .lazy(entry.type) {
        .data(try await display.read(selection, target: target).data)
      }
    }
    return PasteboardItem(representations: representations)
  }
}
