import FerrySystem

/// Re-encodes text a chunk at a time, so that text of any size converts in the memory of one
/// chunk: bytes go in as they are read, the re-encoded bytes of every complete character come
/// out, and a character split between two chunks waits for the rest of its bytes.
///
/// ```swift
/// var transcoder = TextTranscoder(from: .utf8, to: .utf16LittleEndian(byteOrderMark: false))
/// var output: [UInt8] = []
/// try transcoder.feed(firstChunk) { output.append(contentsOf: $0) }
/// try transcoder.feed(secondChunk) { output.append(contentsOf: $0) }
/// try transcoder.finish { output.append(contentsOf: $0) }
/// ```
///
/// A value with no I/O: ``TextEncodingConverter`` reads files and writes spool files around it.
struct TextTranscoder {
  /// An encoding text is read in.
  enum Input: Equatable {
    case utf8
    case latin1
    /// UTF-16 with a byte-order mark, or little-endian without one.
    case utf16
  }

  /// An encoding text is written in.
  enum Output: Equatable {
    case utf8
    /// Latin-1; a character past U+00FF fails the conversion.
    case latin1
    /// UTF-16 little-endian, after a byte-order mark when asked.
    case utf16LittleEndian(byteOrderMark: Bool)
    /// GTK's lenient form of a legacy X target (see ``EscapedTextForm``): never fails.
    case escaped(EscapedTextForm)
    /// Nothing: the text is only checked (see ``TextProfile``).
    case none
  }

  let input: Input
  let output: Output
  /// The bytes of a character the last chunk ended inside of (at most 3).
  private var pending: [UInt8] = []
  /// Whether the input's first bytes (a UTF-16 byte-order mark) were looked at.
  private var started = false
  /// Whether the next UTF-16 unit is the first (a byte-order mark, perhaps).
  private var atFirstUnit = true
  private var bigEndian = false
  /// A UTF-16 high surrogate waiting for its low half.
  private var highSurrogate: UInt16?
  /// Characters written so far, for the Latin-1 error's offset.
  private(set) var scalarCount = 0
  /// The largest scalar seen: below 0x80 the text is ASCII, up to 0xFF it fits Latin-1.
  private(set) var largestScalar: UInt32 = 0
  /// The output buffer: it goes with the transcoder, however the conversion ended.
  private let buffer = ReusableBuffer()
  /// Whether the last character was a carriage return that the escaped output's line-break
  /// rules still have to finish.
  private var afterCarriageReturn = false

  init(from input: Input, to output: Output) {
    self.input = input
    self.output = output
  }

  /// Frees the output buffer now (``finish(_:)`` does); a transcoder that is dropped frees it
  /// anyway.
  mutating func release() {
    buffer.release()
  }

  /// Converts `bytes`, handing the output of the complete characters to `emit` (the buffer is
  /// valid only during the call).
  ///
  /// - Throws: ``TextEncodingError`` when the text is invalid in its encoding or a character
  ///   does not fit the output's.
  mutating func feed(
    _ bytes: UnsafeRawBufferPointer, _ emit: (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    var index = 0
    // Complete the character the last chunk ended inside of, a byte at a time: `pending` only
    // ever holds the start of one character.
    while !pending.isEmpty, index < bytes.count {
      var joined = pending
      joined.append(bytes[index])
      index += 1
      pending = []
      try joined.withUnsafeBytes { try convert($0, emit) }
    }
    if index < bytes.count {
      try convert(UnsafeRawBufferPointer(rebasing: bytes[index...]), emit)
    }
  }

  /// Ends the text: a character left incomplete is an error. Frees the output buffer.
  mutating func finish(_ emit: (UnsafeRawBufferPointer) throws -> Void) throws {
    defer { release() }
    if !started { try begin(emit) }
    guard pending.isEmpty, highSurrogate == nil else {
      throw TextEncodingError.invalid(input == .utf8 ? "UTF-8" : "UTF-16")
    }
    if afterCarriageReturn, output == .escaped(.asciiCRLF) {
      try [UInt8]([0x0A]).withUnsafeBytes { try emit($0) }  // a final CR gets its LF
    }
  }

  /// Converts the complete characters of `bytes` and keeps the bytes of a trailing incomplete
  /// one in `pending`.
  private mutating func convert(
    _ bytes: UnsafeRawBufferPointer, _ emit: (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    if !started { try begin(emit) }
    let out = outputBuffer(for: output == .none ? 0 : bytes.count)
    var written = 0
    var index = 0
    let count = bytes.count
    let base = out.baseAddress!
    func put(_ scalar: UInt32) throws {
      if scalar > largestScalar { largestScalar = scalar }
      defer { scalarCount += 1 }
      switch output {
      case .none:
        break
      case .escaped(let form):
        written += putEscaped(scalar, form, base + written)
      case .latin1:
        guard scalar <= 0xFF else {
          throw TextEncodingError.notLatin1(scalar: Unicode.Scalar(scalar)!, offset: scalarCount)
        }
        base.storeBytes(of: UInt8(scalar), toByteOffset: written, as: UInt8.self)
        written += 1
      case .utf8:
        if scalar < 0x80 {
          base.storeBytes(of: UInt8(scalar), toByteOffset: written, as: UInt8.self)
          written += 1
        } else if scalar < 0x800 {
          base.storeBytes(of: UInt8(0xC0 | scalar >> 6), toByteOffset: written, as: UInt8.self)
          base.storeBytes(
            of: UInt8(0x80 | scalar & 0x3F), toByteOffset: written + 1, as: UInt8.self)
          written += 2
        } else if scalar < 0x10000 {
          base.storeBytes(of: UInt8(0xE0 | scalar >> 12), toByteOffset: written, as: UInt8.self)
          base.storeBytes(
            of: UInt8(0x80 | scalar >> 6 & 0x3F), toByteOffset: written + 1, as: UInt8.self)
          base.storeBytes(
            of: UInt8(0x80 | scalar & 0x3F), toByteOffset: written + 2, as: UInt8.self)
          written += 3
        } else {
          base.storeBytes(of: UInt8(0xF0 | scalar >> 18), toByteOffset: written, as: UInt8.self)
          base.storeBytes(
            of: UInt8(0x80 | scalar >> 12 & 0x3F), toByteOffset: written + 1, as: UInt8.self)
          base.storeBytes(
            of: UInt8(0x80 | scalar >> 6 & 0x3F), toByteOffset: written + 2, as: UInt8.self)
          base.storeBytes(
            of: UInt8(0x80 | scalar & 0x3F), toByteOffset: written + 3, as: UInt8.self)
          written += 4
        }
      case .utf16LittleEndian:
        if scalar < 0x10000 {
          base.storeBytes(of: UInt16(scalar).littleEndian, toByteOffset: written, as: UInt16.self)
          written += 2
        } else {
          let value = scalar - 0x10000
          base.storeBytes(
            of: UInt16(0xD800 | value >> 10).littleEndian, toByteOffset: written, as: UInt16.self)
          base.storeBytes(
            of: UInt16(0xDC00 | value & 0x3FF).littleEndian, toByteOffset: written + 2,
            as: UInt16.self)
          written += 4
        }
      }
    }
    switch input {
    case .latin1:
      while index < count {
        try put(UInt32(bytes[index]))
        index += 1
      }
    case .utf8:
      while index < count {
        let lead = bytes[index]
        if lead < 0x80 {
          // ASCII runs are most text: no decoding beyond the byte.
          try put(UInt32(lead))
          index += 1
          continue
        }
        let length: Int
        var scalar: UInt32
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: (length, scalar) = (2, UInt32(lead & 0x1F))
        case 0xE0: (length, scalar, low) = (3, UInt32(lead & 0x0F), 0xA0)
        case 0xED: (length, scalar, high) = (3, UInt32(lead & 0x0F), 0x9F)
        case 0xE1...0xEF: (length, scalar) = (3, UInt32(lead & 0x0F))
        case 0xF0: (length, scalar, low) = (4, UInt32(lead & 0x07), 0x90)
        case 0xF4: (length, scalar, high) = (4, UInt32(lead & 0x07), 0x8F)
        case 0xF1...0xF3: (length, scalar) = (4, UInt32(lead & 0x07))
        default: throw TextEncodingError.invalid("UTF-8")
        }
        let available = min(length, count - index)
        for offset in 1..<max(available, 1) {
          let byte = bytes[index + offset]
          let (first, last) = offset == 1 ? (low, high) : (UInt8(0x80), UInt8(0xBF))
          guard byte >= first, byte <= last else { throw TextEncodingError.invalid("UTF-8") }
          scalar = scalar << 6 | UInt32(byte & 0x3F)
        }
        if available < length {
          pending = Array(UnsafeRawBufferPointer(rebasing: bytes[index...]))
          break
        }
        try put(scalar)
        index += length
      }
    case .utf16:
      while index < count {
        guard count - index >= 2 else {
          pending = [bytes[index]]
          break
        }
        let (first, second) = (UInt16(bytes[index]), UInt16(bytes[index + 1]))
        let unit = bigEndian ? first << 8 | second : second << 8 | first
        index += 2
        if atFirstUnit {
          atFirstUnit = false
          if first == 0xFE, second == 0xFF {
            bigEndian = true
            continue
          }
          if first == 0xFF, second == 0xFE { continue }
        }
        if let high = highSurrogate {
          guard unit & 0xFC00 == 0xDC00 else { throw TextEncodingError.invalid("UTF-16") }
          highSurrogate = nil
          try put(0x10000 + (UInt32(high & 0x3FF) << 10 | UInt32(unit & 0x3FF)))
        } else if unit & 0xFC00 == 0xD800 {
          highSurrogate = unit
        } else if unit & 0xFC00 == 0xDC00 {
          throw TextEncodingError.invalid("UTF-16")
        } else {
          try put(UInt32(unit))
        }
      }
    }
    if written > 0 { try emit(UnsafeRawBufferPointer(rebasing: out[..<written])) }
  }

  /// Writes `scalar` in GTK's lenient `form` at `out`; returns the bytes written (at most 10).
  private mutating func putEscaped(
    _ scalar: UInt32, _ form: EscapedTextForm, _ out: UnsafeMutableRawPointer
  ) -> Int {
    var count = 0
    func byte(_ value: UInt8) {
      out.storeBytes(of: value, toByteOffset: count, as: UInt8.self)
      count += 1
    }
    let afterCR = afterCarriageReturn
    afterCarriageReturn = false
    switch form {
    case .latin1:
      // CR LF, CR and LF each become one LF.
      if scalar == 0x0A, afterCR { return 0 }
      if scalar == 0x0D || scalar == 0x0A {
        afterCarriageReturn = scalar == 0x0D
        byte(0x0A)
        return count
      }
    case .asciiCRLF:
      // GTK's normalize_to_crlf: LF becomes CR LF; a CR gets an LF unless one follows, and
      // the character after a CR is written as it is, unnormalized (CR CR becomes CR LF CR).
      if afterCR {
        byte(0x0A)
        if scalar == 0x0A { return count }
      } else if scalar == 0x0A {
        byte(0x0D)
        byte(0x0A)
        return count
      } else if scalar == 0x0D {
        afterCarriageReturn = true
        byte(0x0D)
        return count
      }
    }
    // STRING drops control characters but tab (C0, DEL, C1); text/plain keeps C0 and DEL.
    if form == .latin1, scalar < 0x20 && scalar != 0x09 || (0x7F..<0xA0).contains(scalar) {
      return 0
    }
    if scalar <= form.largestKept {
      byte(UInt8(scalar))
      return count
    }
    let digits = scalar < 0x10000 ? 4 : 8
    byte(UInt8(ascii: "\\"))
    byte(UInt8(ascii: digits == 4 ? "u" : "U"))
    for shift in stride(from: (digits - 1) * 4, through: 0, by: -4) {
      let nibble = UInt8(scalar >> UInt32(shift) & 0xF)
      byte(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10)
    }
    return count
  }

  /// Writes the output's byte-order mark and skips the input's, once, at the start.
  private mutating func begin(_ emit: (UnsafeRawBufferPointer) throws -> Void) throws {
    started = true
    if case .utf16LittleEndian(byteOrderMark: true) = output {
      try [UInt8]([0xFF, 0xFE]).withUnsafeBytes { try emit($0) }
    }
  }

  /// A buffer large enough for the output of `count` input bytes.
  private mutating func outputBuffer(for count: Int) -> UnsafeMutableRawBufferPointer {
    // UTF-8 → UTF-16 doubles ASCII; Latin-1 → UTF-8 doubles the upper half; nothing grows
    // more than that, and a split character adds at most 4 bytes.
    // An escape grows a Latin-1 byte to 6 bytes (`\u00e9`), a 4-byte character to 10.
    let growth: Int
    if case .escaped = output { growth = 6 } else { growth = 2 }
    let needed = count * growth + 16
    return buffer.bytes(needed)
  }
}
