import CoreTransferable
import FoundationEssentials
import UniformTypeIdentifiers

extension PasteboardItem {
  /// An item holding `value`'s representations visible to every process, in its order, each
  /// produced on first request: data in memory, files copied (by the kernel) into the item's
  /// spool directory, or served in place when the representation allows it.
  ///
  /// ```swift
  /// let item = PasteboardItem(profile)
  /// item.storedTypes   // [com.example.profile, public.utf8-plain-text, public.plain-text]
  /// ```
  public convenience init(
    _ value: some Transferable, options: Options = [], converters: ConverterRegistry = .shared
  ) {
    let exports = value.transferExports(visibleTo: .all)
    let spool = Spool()
    let representations = exports.map { export in
      PasteboardRepresentation.lazy(export.contentType) { [spool] in
        if export.isFileBacked {
          let received = try await export.file(in: spool.prepared(), openingInPlace: true)
          return .file(received.file)
        }
        return .data(try await export.data())
      }
    }
    // The closures own the spool: its files go when the item goes.
    self.init(representations: representations, options: options, converters: converters)
  }
}
