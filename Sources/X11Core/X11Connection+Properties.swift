internal import CX11
import FoundationEssentials

/// Reading, writing and deleting window properties.
extension X11Connection {
  /// A property's value as the server returned it.
  public struct Property {
    /// The property's type.
    public var type: XAtom
    /// The size of an item in bits: 8, 16 or 32.
    public var format: Int32
    /// The bytes: format-8 data as is, format-16 as shorts, format-32 as 32-bit values.
    public var bytes: Data
    /// How many items of ``format`` bits the value holds.
    public var itemCount: Int

    /// Format-32 items as numbers (atoms, windows, integers).
    public var values: [UInt] {
      guard format == 32 else { return [] }
      return bytes.withUnsafeBytes { raw in
        (0..<itemCount).map { UInt(raw.load(fromByteOffset: $0 * 4, as: UInt32.self)) }
      }
    }
  }

  /// A property's type, format and size in bytes, read without its data; `nil` when it does
  /// not exist. Lets a reader decide before the bytes cross the connection.
  public func propertyShape(of window: XWindow, _ property: XAtom) -> (
    type: XAtom, format: Int32, byteCount: Int
  )? {
    getProperty(of: window, property, length: 0, delete: false) { type, format, _, after, _ in
      (XAtom(rawValue: UInt(type)), format, Int(after))
    }
  }

  /// Calls `XGetWindowProperty` for up to `length` 32-bit units and hands `body` what it
  /// returned (type, format, items, bytes after, data), freeing the data afterwards; `nil`
  /// when the property does not exist.
  private func getProperty<T>(
    of window: XWindow, _ property: XAtom, length: Int, delete: Bool,
    _ body: (Atom, Int32, UInt, UInt, UnsafeMutablePointer<UInt8>?) -> T
  ) -> T? {
    var type: Atom = 0
    var format: Int32 = 0
    var count: UInt = 0
    var after: UInt = 0
    var data: UnsafeMutablePointer<UInt8>?
    let status = XGetWindowProperty(
      display, Window(window.rawValue), Atom(property.rawValue), 0, length, delete ? 1 : 0,
      Atom(AnyPropertyType), &type, &format, &count, &after, &data)
    defer { if let data { XFree(data) } }
    guard status == Success, type != 0 else { return nil }
    return body(type, format, count, after, data)
  }

  /// Reads a whole property, deleting it when `delete` is set; `nil` when it does not exist.
  public func property(of window: XWindow, _ property: XAtom, delete: Bool) -> Property? {
    getProperty(of: window, property, length: 0x1fff_ffff, delete: delete) {
      type, format, count, _, data in
      var bytes = Data()
      if let data {
        switch format {
        case 8: bytes = Data(bytes: data, count: Int(count))
        case 16:
          let shorts = UnsafeRawPointer(data).assumingMemoryBound(to: CShort.self)
          bytes.reserveCapacity(Int(count) * 2)
          for index in 0..<Int(count) {
            withUnsafeBytes(of: UInt16(bitPattern: shorts[index])) { bytes.append(contentsOf: $0) }
          }
        default:
          // Format-32 data arrive as C longs.
          let longs = UnsafeRawPointer(data).assumingMemoryBound(to: CLong.self)
          bytes.reserveCapacity(Int(count) * 4)
          for index in 0..<Int(count) {
            withUnsafeBytes(of: UInt32(truncatingIfNeeded: longs[index])) {
              bytes.append(contentsOf: $0)
            }
          }
        }
      }
      return Property(
        type: XAtom(rawValue: UInt(type)), format: format, bytes: bytes, itemCount: Int(count))
    }
  }

  /// Replaces (or appends to) a property with format-8 bytes.
  public func setProperty(
    of window: XWindow, _ property: XAtom, type: XAtom, bytes: UnsafeRawBufferPointer,
    append: Bool = false
  ) {
    let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
    XChangeProperty(
      display, Window(window.rawValue), Atom(property.rawValue), Atom(type.rawValue), 8,
      append ? PropModeAppend : PropModeReplace, base, Int32(bytes.count))
  }

  /// Replaces a property with format-32 values (atoms, windows, integers), written as C longs.
  public func setProperty(of window: XWindow, _ property: XAtom, type: XAtom, values: [UInt]) {
    var longs = values.map { CLong(bitPattern: $0) }
    _ = longs.withUnsafeMutableBytes { raw in
      XChangeProperty(
        display, Window(window.rawValue), Atom(property.rawValue), Atom(type.rawValue), 32,
        PropModeReplace, raw.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(values.count))
    }
  }

  /// Deletes a property of `window`.
  public func deleteProperty(of window: XWindow, _ property: XAtom) {
    XDeleteProperty(display, Window(window.rawValue), Atom(property.rawValue))
  }
}
