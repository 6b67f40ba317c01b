/// The compositor broke the wire protocol: a malformed message, or one that makes no sense to
/// this client. The connection ends with it, as libwayland ends a display on one.
///
/// ```text
/// the Wayland compositor sent a malformed event at byte 96: a message of 4 bytes, shorter than its 8-byte header
/// ```
package struct WaylandProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Where in the stream the message at fault began (its header), in bytes.
  package var offset: Int
  /// What was wrong, for people.
  package var reason: String

  /// Creates an error about the message at `offset`.
  package init(at offset: Int, _ reason: String) {
    self.offset = offset
    self.reason = reason
  }

  /// One line for people.
  package var description: String {
    "the Wayland compositor sent a malformed event at byte \(offset): \(reason)"
  }
}
