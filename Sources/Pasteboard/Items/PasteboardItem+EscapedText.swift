import FerrySystem
import FoundationEssentials

extension PasteboardItem {
  /// The item's text in GTK's lenient `form` of a legacy X target (`STRING`, `text/plain`):
  /// made once from the UTF-8 text, a chunk at a time, into a file of the item's spool when it
  /// is large, and kept with the item like its conversions.
  ///
  /// ```swift
  /// try await item.escapedText(.asciiCRLF)   // what a GTK owner serves as text/plain
  /// ```
  ///
  /// - Throws: ``PasteboardError`` when the item has no valid UTF-8 text.
  public func escapedText(_ form: EscapedTextForm) async throws -> PasteboardPayload {
    let task = escaped.withLock { tasks in
      if let task = tasks[form] { return task }
      // An unstructured task on the production threads, whatever the caller prefers (see
      // `produce(_:route:)`).
      let task = Task(executorPreference: ProductionExecutor.shared) { [self] in
        let utf8 = try await payload(for: .utf8PlainText)
        do {
          let spool = spool.map { ConversionSpool(spool: $0) }
          return try await TextEncodingConverter.offThePoolWhenLarge(utf8) {
            try TextEncodingConverter.escapedText(utf8, as: form, spool: spool)
          }
        } catch let error as PasteboardError {
          throw error
        } catch {
          throw PasteboardError.conversionFailed(
            from: .utf8PlainText, to: .plainText, reason: "\(error)")
        }
      }
      tasks[form] = task
      return task
    }
    do {
      return try await task.value
    } catch {
      escaped.withLock { tasks in
        if tasks[form] == task { tasks[form] = nil }
      }
      throw error
    }
  }
}
