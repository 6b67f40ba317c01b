import FerrySystem
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct PollTests {
  @Test func aDeadlineThatPassesReturnsNothingReady() throws {
    try withPipe { readEnd, _ in
      let start = ContinuousClock.now
      let found = try readEnd.wait(for: .readable, until: start + .milliseconds(50))
      #expect(found.isEmpty)
      #expect(ContinuousClock.now - start >= .milliseconds(50), "never ends early")
    }
  }

  @Test func readyEntriesAreReported() throws {
    try withPipe { readEnd, writeEnd in
      try withPipe { idle, _ in
        try writeEnd.writeAll(Array("x".utf8))
        var entries = [
          PollEntry(idle, for: .readable), PollEntry(readEnd, for: .readable),
          PollEntry(writeEnd, for: .writable),
        ]
        let ready = try Poll.wait(&entries, until: nil)
        #expect(ready == 2)
        #expect(!entries[0].isReady)
        #expect(entries[1].returned == .readable && entries[1].descriptor == readEnd)
        #expect(entries[2].returned.contains(.writable))
      }
    }
  }

  @Test func aHangUpIsReported() throws {
    let (readEnd, writeEnd) = try FileDescriptor.closeOnExecPipe()
    defer { try? readEnd.close() }
    try writeEnd.close()
    #expect(try readEnd.wait(for: .readable).contains(.hangUp))
  }

  @Test func anInterruptedWaitGoesOnUntilReady() throws {
    try withPipe { readEnd, writeEnd in
      let (result, signals, _) = Interrupter.run(
        { () -> Result<PollEvents, Errno> in
          Result { () throws(Errno) in try readEnd.wait(for: .readable, until: .now + .seconds(20))
          }
        },
        afterwards: {
          _ = try? writeEnd.writeAll(Array("x".utf8))
        })
      let found = try result.get()
      #expect(signals > 0)
      #expect(found == .readable)
    }
  }

  @Test func anInterruptedWaitKeepsItsDeadline() throws {
    try withPipe { readEnd, _ in
      let start = ContinuousClock.now
      // Interrupted every 5 ms until it ends (a minute at most, against a hang): a wait that
      // started its whole 150 ms again after each interruption would never end meanwhile.
      let (result, signals, endedWhileInterrupted) = Interrupter.run(
        interruptFor: .seconds(60),
        {
          () -> Result<PollEvents, Errno> in
          Result { () throws(Errno) in
            try readEnd.wait(for: .readable, until: start + .milliseconds(150))
          }
        }, afterwards: {})
      let found = try result.get()
      #expect(signals > 0)
      #expect(found.isEmpty)
      #expect(
        ContinuousClock.now - start >= .milliseconds(150), "interruptions do not end the wait early"
      )
      #expect(endedWhileInterrupted, "nor restart its whole timeout each time")
    }
  }

  @Test(arguments: [
    (Duration.zero, CInt(0)), (.nanoseconds(1), 1), (.milliseconds(-5), 0),
    (.microseconds(1500), 2),
    (.seconds(2), 2000), (.seconds(Int64.max), CInt.max),
  ])
  func millisecondsRoundUp(duration: Duration, expected: CInt) {
    #expect(Poll.milliseconds(duration) == expected)
  }
}
