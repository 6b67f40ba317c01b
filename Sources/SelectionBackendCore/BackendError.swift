/// What a selection backend can report, the same for every display server.
public enum BackendError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Nobody owns the selection.
  case noOwner(SelectionRole)
  /// Another owner took the selection before a request meant for the owner that made the
  /// offer was made: nothing was asked of the new one.
  case ownerChanged(SelectionRole)
  /// The owner refused the type (X11: it answered `None`; Wayland: it does not offer it).
  case refused(SelectionRole, target: String)
  /// A step of the transfer took longer than its timeout: the owner's answer or a chunk;
  /// the step, described for people.
  case timedOut(String)
  /// The data is larger than the transfer may take, `limit` bytes.
  case tooLarge(limit: Int)
  /// The selection could not be taken (an `onlyIfUnowned` take found an owner).
  case ownershipRefused(SelectionRole)
  /// The display server has no such selection.
  case unsupported(SelectionRole)
  /// The display server could not be reached.
  case cannotConnect(String)
  /// The connection to the display server was lost.
  case connectionLost
  /// Anything else, described for people.
  case failed(String)

  /// One line for people.
  public var description: String {
    switch self {
    case .noOwner(let role): "nobody owns \(role)"
    case .ownerChanged(let role): "another owner took \(role)"
    case .refused(let role, let target): "the owner of \(role) refused to convert it to \(target)"
    case .timedOut(let step): "timed out \(step)"
    case .tooLarge(let limit): "the data is larger than \(limit) bytes"
    case .ownershipRefused(let role): "could not take ownership of \(role)"
    case .unsupported(let role): "this display server has no \(role) selection"
    case .cannotConnect(let reason): reason
    case .connectionLost: "the connection to the display server was lost"
    case .failed(let reason): reason
    }
  }
}
