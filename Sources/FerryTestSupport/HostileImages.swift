import FoundationEssentials

/// Hostile images built byte by byte, for the image decoders' tests and the broker's: each
/// claims more than it holds.
public enum HostileImages {
  /// A PNG whose header claims `width` × `height` pixels, with a token of image data.
  public static func pngClaiming(width: UInt32, height: UInt32) -> Data {
    var header = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    var ihdr = Data("IHDR".utf8)
    ihdr.append(bigEndian: width)
    ihdr.append(bigEndian: height)
    ihdr.append(contentsOf: [8, 6, 0, 0, 0])  // 8-bit RGBA
    header.append(bigEndian: UInt32(13))
    header.append(ihdr)
    header.append(bigEndian: crc32(ihdr))
    for (name, body) in [("IDAT", Data([0x78, 0x9C, 0x03, 0x00])), ("IEND", Data())] {
      var chunk = Data(name.utf8)
      chunk.append(body)
      header.append(bigEndian: UInt32(body.count))
      header.append(chunk)
      header.append(bigEndian: crc32(chunk))
    }
    return header
  }

  /// A GIF of 1 × 1 pixels that claims `frames` more frames (each an image descriptor with no
  /// data: a reader that walks every frame, or allocates for the count, pays for them).
  public static func gifWithFrames(_ frames: Int) -> Data {
    var data = Data("GIF89a".utf8)
    data.append(contentsOf: [1, 0, 1, 0, 0x80, 0, 0])  // 1×1, a global table of 2 colors
    data.append(contentsOf: [0, 0, 0, 255, 255, 255])
    for _ in 0...frames {
      data.append(contentsOf: [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0])  // an image descriptor
      data.append(contentsOf: [2, 2, 0x4C, 0x01, 0])  // LZW min size 2, one block, end
    }
    data.append(0x3B)
    return data
  }

  /// A little-endian TIFF of 16 × 16 RGB pixels whose one strip's offset points far past the
  /// file's end, compressed (it says) with scheme `compression` (1: none).
  public static func tiffWithBogusOffset(compression: UInt32 = 1) -> Data {
    var data = Data([0x49, 0x49, 42, 0])
    data.append(littleEndian: UInt32(8))
    let entries: [(UInt16, UInt16, UInt32, UInt32)] = [
      (256, 3, 1, 16), (257, 3, 1, 16), (258, 3, 1, 8), (259, 3, 1, compression), (262, 3, 1, 2),
      (273, 4, 1, 0x7FFF_FFF0), (277, 3, 1, 3), (278, 3, 1, 16), (279, 4, 1, 768),
    ]
    data.append(littleEndian: UInt16(entries.count))
    for (tag, type, count, value) in entries {
      data.append(littleEndian: tag)
      data.append(littleEndian: type)
      data.append(littleEndian: count)
      data.append(littleEndian: value)
    }
    data.append(littleEndian: UInt32(0))
    return data
  }

  private static func crc32(_ data: Data) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in data {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return crc ^ 0xFFFF_FFFF
  }
}

extension Data {
  fileprivate mutating func append(bigEndian value: UInt32) {
    append(contentsOf: Swift.withUnsafeBytes(of: value.bigEndian) { Array($0) })
  }
  fileprivate mutating func append(littleEndian value: UInt32) {
    append(contentsOf: Swift.withUnsafeBytes(of: value.littleEndian) { Array($0) })
  }
  fileprivate mutating func append(littleEndian value: UInt16) {
    append(contentsOf: Swift.withUnsafeBytes(of: value.littleEndian) { Array($0) })
  }
}
