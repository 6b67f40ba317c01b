import FerrySystem
import SelectionBackendCore

/// The common paste, plain text, on the calling thread: connect, read the current offer,
/// ask for its UTF-8 text and copy it to the output as it comes — no task and no thread of the
/// connection's own, as wl-paste does it. `pbpaste` with no broker tries this first.
public enum WaylandTextPaste {
  /// The UTF-8 text types, in the order they are asked for when the owner lists both.
  static let textTypes = ["text/plain;charset=utf-8", "UTF8_STRING"]

  /// Writes the owner's UTF-8 text of `role` to `descriptor`.
  ///
  /// - Parameters:
  ///   - role: The clipboard or the primary selection.
  ///   - socket: The compositor (`nil`: `$WAYLAND_DISPLAY`).
  ///   - stepTimeout: How long the owner may take for each chunk.
  ///   - descriptor: Where the text goes.
  /// - Returns: `false`, having written nothing, when the owner offers no UTF-8 text.
  /// - Throws: `BackendError`: no owner, a timeout, no compositor.
  public static func paste(
    _ role: SelectionRole, socket: String?, stepTimeout: Duration, to descriptor: Int32
  )
    throws(BackendError) -> Bool
  {
    guard role == .clipboard || role == .primary else { throw .unsupported(role) }
    let connection = try WaylandConnection(socket: socket, startsThread: false)
    let state = connection.state
    guard let offer = state.current[role], let types = state.offers[offer] else {
      throw .noOwner(role)
    }
    guard let target = textTypes.first(where: types.contains) else { return false }
    let pipe = try PipeTransfer.makePipe()
    connection.wire.send(
      offer, DataControlOfferRequest.receive, [.string(target), .descriptor(pipe.write.rawValue)])
    let flushed = Result { () throws(BackendError) in try connection.wire.flush() }
    try? pipe.write.close()
    try flushed.get()
    try PipeTransfer.copy(
      pipe.read, to: FileDescriptor(rawValue: descriptor), stepTimeout: stepTimeout,
      what: "the owner of \(role) to send \(target)")
    return true
  }
}
