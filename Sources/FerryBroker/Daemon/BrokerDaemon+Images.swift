import ImageConversion
import Pasteboard

extension BrokerDaemon {
  /// Decodes each image that becomes `board`'s current copy ahead of its readers, so that the
  /// first one asking for another format pays only the encoding (`ImageConverter.prepare`:
  /// the pixels are kept for the minute after). A concealed copy is left alone. Runs until the
  /// task is cancelled.
  static func prepareImages(of board: Pasteboard, with converter: ImageConverter) async {
    for await count in board.changes {
      // A capture in progress finishes first: its item is the one to decode.
      guard await board.settle(within: .seconds(15)), board.changeCount == count,
        let item = board.items.first, !item.options.contains(.concealed)
      else { continue }
      for type in item.storedTypes where ImageFormat(type: type) != nil {
        if let payload = item.storedPayload(for: type) {
          converter.prepare(payload, of: type)
          break
        }
      }
    }
  }
}
