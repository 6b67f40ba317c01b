internal import CX11
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Text encodings Xlib converts: compound text (ISO 2022) and UTF-8.
extension X11Connection {
  /// UTF-8 text as compound text (ISO 2022), through Xlib.
  public func compoundText(fromUTF8 text: Data) -> Data? {
    var source = [CChar](repeating: 0, count: text.count + 1)
    text.withUnsafeBytes { raw in
      for (index, byte) in raw.enumerated() { source[index] = CChar(bitPattern: byte) }
    }
    var property = XTextProperty()
    let status = source.withUnsafeMutableBufferPointer { buffer -> Int32 in
      var list: [UnsafeMutablePointer<CChar>?] = [buffer.baseAddress]
      return Xutf8TextListToTextProperty(display, &list, 1, XCompoundTextStyle, &property)
    }
    guard status >= 0, let value = property.value else { return nil }
    defer { XFree(value) }
    return Data(bytes: value, count: Int(property.nitems))
  }

  /// Compound text (or any text encoding Xlib knows, named by `encoding`) as UTF-8.
  public func utf8Text(from bytes: Data, encoding: XAtom) -> Data? {
    var storage = [UInt8](bytes) + [0]
    return storage.withUnsafeMutableBufferPointer { buffer -> Data? in
      var property = XTextProperty(
        value: buffer.baseAddress, encoding: Atom(encoding.rawValue), format: 8,
        nitems: UInt(bytes.count))
      var list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
      var count: Int32 = 0
      let status = Xutf8TextPropertyToTextList(display, &property, &list, &count)
      guard status >= 0, let list else { return nil }
      defer { XFreeStringList(list) }
      var result = Data()
      for index in 0..<Int(count) {
        if let item = list[index] { result.append(contentsOf: Array(String(cString: item).utf8)) }
      }
      return result
    }
  }
}
