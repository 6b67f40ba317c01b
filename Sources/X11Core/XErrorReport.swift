/// A protocol error the server reported for one request, as ``X11Connection/sync()``
/// collects it.
///
/// ```swift
/// let checkedFrom = connection.nextRequestSerial
/// connection.changeProperty(of: requestor, property, type: .string, bytes: bytes)
/// let failed = connection.sync().contains { $0.serial >= checkedFrom }
/// ```
public struct XErrorReport: Sendable, Equatable {
  /// The error code (`BadWindow`, `BadAlloc`).
  public var code: XErrorCode
  /// The major opcode of the failed request.
  public var request: UInt8
  /// The resource (window, atom) the request named.
  public var resource: UInt
  /// The serial number of the failed request, to tell a late error of an earlier unchecked
  /// request from one of the requests being checked.
  public var serial: UInt

  /// A report.
  public init(code: XErrorCode, request: UInt8, resource: UInt, serial: UInt = 0) {
    (self.code, self.request, self.resource, self.serial) = (code, request, resource, serial)
  }
}
