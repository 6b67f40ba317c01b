/// Reads choices out of a fuzz input: the event sequences of the state-machine targets.
///
/// An exhausted input reads as zeros, so every input is a complete (if short) sequence.
struct FuzzInput {
  private let bytes: [UInt8]
  private var offset = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  /// Whether every byte was read.
  var isAtEnd: Bool { offset >= bytes.count }

  /// The next byte.
  mutating func byte() -> UInt8 {
    guard offset < bytes.count else { return 0 }
    defer { offset += 1 }
    return bytes[offset]
  }

  /// A number in `0..<count`.
  mutating func choice(_ count: Int) -> Int { Int(byte()) % max(count, 1) }

  /// One of `options`.
  mutating func pick<T>(_ options: [T]) -> T { options[choice(options.count)] }

  mutating func bool() -> Bool { byte() & 1 == 1 }

  /// A number made of `byteCount` bytes, big-endian.
  mutating func number(bytes byteCount: Int) -> Int {
    (0..<byteCount).reduce(0) { value, _ in value << 8 | Int(byte()) }
  }

  /// A size that is usually small and sometimes large.
  mutating func size() -> Int {
    switch choice(4) {
    case 0: 0
    case 1, 2: number(bytes: 1)
    default: number(bytes: 3)
    }
  }
}
