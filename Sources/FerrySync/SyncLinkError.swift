/// Why a sync link ended, in one line for `ferry status` and the exit message.
public enum SyncLinkError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The other end sent something that is not the link's protocol.
  case protocolViolation(String)
  /// Bytes came before the other end's hello: a login script writing to standard output.
  case bytesBeforeHello(Int)
  /// The other end said why it cannot go on (an ERROR frame): no broker answers there.
  case remote(String)
  /// The link closed.
  case closed(String)
  /// Reading or writing the link failed.
  case io(String)

  public var description: String {
    switch self {
    case .protocolViolation(let what): return "the other end broke the sync protocol: \(what)"
    case .bytesBeforeHello(let count):
      return
        "the remote printed \(count) byte\(count == 1 ? "" : "s") before ferry started (a login script writing to standard output?)"
    case .remote(let message): return message
    case .closed(let why): return why
    case .io(let why): return why
    }
  }
}
