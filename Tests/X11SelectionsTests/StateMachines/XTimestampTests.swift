import Testing
import X11Selections

/// Server time is 32-bit milliseconds that wrap about every 49.7 days; "earlier" is modular.
@Suite struct XTimestampTests {
  @Test(arguments: [
    (UInt(1), UInt(2)),
    (0, 1),
    (1_000, 2_000),
    (0xFFFF_FFF0, 0x10),  // across the wrap
    (0xFFFF_FFFF, 0),
    (0x8000_0000, 0xFFFF_FFFF),
    (5, 0x8000_0004),  // just under half the circle ahead
  ])
  func earlierIsLess(earlier: UInt, later: UInt) {
    let a = XTimestamp(rawValue: earlier)
    let b = XTimestamp(rawValue: later)
    #expect(a < b)
    #expect(!(b < a))
    #expect(b > a)
  }

  @Test(arguments: [UInt(0), 1, 0x7FFF_FFFF, 0xFFFF_FFFF])
  func aTimeIsNotEarlierThanItself(raw: UInt) {
    #expect(!(XTimestamp(rawValue: raw) < XTimestamp(rawValue: raw)))
  }

  @Test func currentTimeIsZero() {
    #expect(XTimestamp.current.rawValue == 0)
  }
}
