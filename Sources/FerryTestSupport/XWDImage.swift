import Foundation

/// An `xwd` dump of a window in a 32-bit ZPixmap (what Xvfb's default depth-24 visual gives),
/// for tests that compare what the X server drew with what Ferry draws itself.
public struct XWDImage: Sendable {
  /// The image's width.
  public let width: Int
  /// Its height.
  public let height: Int
  private let data: Data
  private let start: Int
  private let bytesPerLine: Int
  private let littleEndian: Bool

  /// A dump this reader does not take, and why.
  public struct Unreadable: Error, CustomStringConvertible {
    public var description: String
  }

  /// Reads `xwd`'s output.
  public init(_ data: Data) throws {
    let bytes = [UInt8](data)
    func field(_ index: Int) -> Int {
      bytes[(index * 4)..<(index * 4 + 4)].reduce(0) { $0 << 8 | Int($1) }
    }
    guard bytes.count >= 100 else { throw Unreadable(description: "\(bytes.count) bytes") }
    let headerSize = field(0)
    guard field(1) == 7, field(2) == 2, field(11) == 32 else {
      throw Unreadable(description: "version \(field(1)), format \(field(2)), \(field(11)) bits")
    }
    width = field(4)
    height = field(5)
    littleEndian = field(7) == 0
    bytesPerLine = field(12)
    let colors = field(19)
    start = headerSize + colors * 12
    guard start + bytesPerLine * height <= bytes.count else {
      throw Unreadable(description: "the image runs past the end")
    }
    self.data = data
  }

  /// The pixel at `(x, y)`.
  public func pixel(_ x: Int, _ y: Int) -> UInt32 {
    let offset = data.startIndex + start + y * bytesPerLine + x * 4
    let word = data[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    return littleEndian ? word.byteSwapped : word
  }
}
