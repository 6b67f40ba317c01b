/// An X atom: a server-wide number naming a string (`CLIPBOARD`, `UTF8_STRING`).
///
/// ```swift
/// let none = XAtom.none
/// ```
public struct XAtom: RawRepresentable, Hashable, Sendable, Codable {
  /// The atom's number.
  public let rawValue: UInt

  /// Wraps an atom number.
  public init(rawValue: UInt) { self.rawValue = rawValue }

  /// No atom. The corresponding Xlib constant is `None`.
  public static let none = XAtom(rawValue: 0)
  /// The `PRIMARY` selection. The corresponding Xlib constant is `XA_PRIMARY`.
  public static let primary = XAtom(rawValue: 1)
  /// The `ATOM` type. The corresponding Xlib constant is `XA_ATOM`.
  public static let atom = XAtom(rawValue: 4)
  /// The `INTEGER` type. The corresponding Xlib constant is `XA_INTEGER`.
  public static let integer = XAtom(rawValue: 19)
  /// The `STRING` type. The corresponding Xlib constant is `XA_STRING`.
  public static let string = XAtom(rawValue: 31)
  /// The `WINDOW` type. The corresponding Xlib constant is `XA_WINDOW`.
  public static let window = XAtom(rawValue: 33)
}

/// An X window id.
public struct XWindow: RawRepresentable, Hashable, Sendable, Codable {
  /// The window's id.
  public let rawValue: UInt

  /// Wraps a window id.
  public init(rawValue: UInt) { self.rawValue = rawValue }

  /// No window. The corresponding Xlib constant is `None`.
  public static let none = XWindow(rawValue: 0)
}

/// An X server timestamp, in milliseconds of server time (wrapping at 2³²).
public struct XTimestamp: RawRepresentable, Hashable, Sendable, Codable, Comparable {
  /// The server time.
  public let rawValue: UInt

  /// Wraps a server time.
  public init(rawValue: UInt) { self.rawValue = rawValue }

  /// "Now", as a request may say; never used to take ownership. The corresponding Xlib
  /// constant is `CurrentTime`.
  public static let current = XTimestamp(rawValue: 0)

  /// Whether this time is earlier than `other`, in 32-bit wrapping server time.
  public static func < (lhs: XTimestamp, rhs: XTimestamp) -> Bool {
    let difference = UInt32(truncatingIfNeeded: rhs.rawValue &- lhs.rawValue)
    return difference != 0 && difference < 0x8000_0000
  }
}
