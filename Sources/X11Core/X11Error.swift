/// Why an X11 operation failed.
public enum X11Error: Error, CustomStringConvertible, Sendable, Equatable {
  /// No display could be opened.
  case cannotOpenDisplay(String)
  /// The connection to the display was lost.
  case connectionLost
  /// The server reported an error for a request.
  case protocolError(XErrorCode, request: UInt8, resource: UInt)
  /// A required extension is missing.
  case missingExtension(String)
  /// Ownership of a selection could not be taken.
  case ownershipRefused(Selection)
  /// The selection has no owner.
  case noOwner(Selection)
  /// Another owner took the selection before a request meant for the previous one was made.
  case ownerChanged(Selection)
  /// The owner refused to convert the selection to the target.
  case refused(selection: Selection, target: String)
  /// The peer did not answer within the deadline.
  case timedOut(String)
  /// The peer sent something malformed.
  case malformedReply(String)
  /// The reply grew past the byte limit the reader set.
  case tooLarge(limit: Int)

  /// One line naming what failed.
  public var description: String {
    switch self {
    case .cannotOpenDisplay(let name):
      "cannot open display \(name.isEmpty ? "(DISPLAY is not set)" : name)"
    case .connectionLost: "the connection to the X display was lost"
    case .protocolError(let code, let request, let resource):
      "X protocol error \(code.rawValue) in request \(request) (resource 0x\(String(resource, radix: 16)))"
    case .missingExtension(let name): "the X server lacks the \(name) extension"
    case .ownershipRefused(let selection): "could not take ownership of \(selection)"
    case .noOwner(let selection): "nobody owns \(selection)"
    case .ownerChanged(let selection): "another owner took \(selection)"
    case .refused(let selection, let target):
      "the owner of \(selection) refused to convert it to \(target)"
    case .timedOut(let step): "timed out \(step)"
    case .malformedReply(let what): "malformed reply: \(what)"
    case .tooLarge(let limit): "the data is larger than \(limit) bytes"
    }
  }
}
