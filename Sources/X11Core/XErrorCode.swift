/// An X protocol error code, as reported in an `XErrorEvent`.
public struct XErrorCode: RawRepresentable, Hashable, Sendable {
  /// The code.
  public let rawValue: UInt8

  /// Wraps a code.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// A window does not exist. The corresponding Xlib constant is `BadWindow`.
  public static let badWindow = XErrorCode(rawValue: 3)
  /// An atom does not exist. The corresponding Xlib constant is `BadAtom`.
  public static let badAtom = XErrorCode(rawValue: 5)
  /// A request was too long. The corresponding Xlib constant is `BadLength`.
  public static let badLength = XErrorCode(rawValue: 16)
  /// The server ran out of memory. The corresponding Xlib constant is `BadAlloc`.
  public static let badAlloc = XErrorCode(rawValue: 11)

  /// Lets `catch XErrorCode.badWindow` match an ``X11Error/protocolError(_:request:resource:)``.
  public static func ~= (code: XErrorCode, error: any Error) -> Bool {
    if case .protocolError(let actual, _, _) = error as? X11Error { return actual == code }
    return false
  }
}
