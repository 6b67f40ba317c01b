import FerrySystem
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct FileDescriptorTests {
  @Test func readWaitingGoesOnAfterInterruptions() throws {
    let (readEnd, writeEnd) = try FileDescriptor.closeOnExecPipe()
    defer { try? readEnd.close() }
    let (result, signals) = Interrupter.run({ () -> Result<[UInt8], Errno> in
      var buffer = [UInt8](repeating: 0, count: 16)
      return Result { () throws(Errno) in
        let count = try buffer.withUnsafeMutableBytes { raw in
          Result { () throws(Errno) in try readEnd.readWaiting(into: raw) }
        }.get()
        return Array(buffer.prefix(count))
      }
    }, afterwards: {
      _ = try? writeEnd.writeAll(Array("late".utf8))
      try? writeEnd.close()
    })
    #expect(signals > 0, "the read was interrupted")
    #expect(try result.get() == Array("late".utf8))
  }

  @Test func readWaitingWaitsOnANonBlockingDescriptor() throws {
    let (readEnd, writeEnd) = try FileDescriptor.closeOnExecPipe()
    defer { try? readEnd.close() }
    try readEnd.setNonBlocking()
    let writer = Thread {
      usleep(50_000)
      _ = try? writeEnd.writeAll(Array("x".utf8))
      try? writeEnd.close()
    }
    writer.start()
    var byte: UInt8 = 0
    let count = try withUnsafeMutableBytes(of: &byte) { try readEnd.readWaiting(into: $0) }
    #expect(count == 1 && byte == UInt8(ascii: "x"))
  }

  @Test func readFillingCollectsShortReads() throws {
    let (readEnd, writeEnd) = try FileDescriptor.closeOnExecPipe()
    defer { try? readEnd.close() }
    Thread {
      for part in ["ab", "cd", "ef"] {
        _ = try? writeEnd.writeAll(Array(part.utf8))
        usleep(20_000)
      }
      try? writeEnd.close()
    }.start()
    var buffer = [UInt8](repeating: 0, count: 8)
    let count = try buffer.withUnsafeMutableBytes { try readEnd.read(filling: $0) }
    #expect(count == 6, "stopped only at the end of the input")
    #expect(buffer.prefix(count) == Array("abcdef".utf8)[...])
  }

  @Test func readFillingGoesOnAfterInterruptions() throws {
    let (readEnd, writeEnd) = try FileDescriptor.closeOnExecPipe()
    defer { try? readEnd.close() }
    let (result, signals) = Interrupter.run({ () -> Result<Int, Errno> in
      var buffer = [UInt8](repeating: 0, count: 4)
      return buffer.withUnsafeMutableBytes { raw in Result { () throws(Errno) in try readEnd.read(filling: raw) } }
    }, afterwards: {
      _ = try? writeEnd.writeAll(Array("full".utf8))
    })
    try? writeEnd.close()
    #expect(signals > 0)
    #expect(try result.get() == 4)
  }

  @Test func readFromOffsetLeavesThePositionAlone() throws {
    let path = NSTemporaryDirectory() + "ferry-system-\(UUID().uuidString)"
    try Data("0123456789".utf8).write(to: URL(fileURLWithPath: path))
    defer { unlink(path) }
    let file = try FileDescriptor.open(path, .readOnly)
    defer { try? file.close() }
    var buffer = [UInt8](repeating: 0, count: 4)
    let count = try buffer.withUnsafeMutableBytes { try file.read(fromAbsoluteOffset: 8, filling: $0) }
    #expect(count == 2 && buffer.prefix(2) == Array("89".utf8)[...])
    #expect(try file.readToEnd() == Array("0123456789".utf8))
  }

  @Test func readToEndReadsAPipeLargerThanItsFirstGuess() throws {
    let (readEnd, writeEnd) = try FileDescriptor.closeOnExecPipe()
    defer { try? readEnd.close() }
    let payload = (0..<300_000).map { UInt8(truncatingIfNeeded: $0) }
    Thread {
      _ = try? payload.withUnsafeBytes { try writeEnd.writeAll(from: $0) }
      try? writeEnd.close()
    }.start()
    #expect(try readEnd.readToEnd() == payload)
  }

  @Test(arguments: [false, true])
  func writeAllOnAFullNonBlockingPipe(waiting: Bool) throws {
    let (readEnd, writeEnd) = try FileDescriptor.closeOnExecPipe()
    try writeEnd.setNonBlocking()
    let payload = [UInt8](repeating: 7, count: 1 << 20)  // far more than a pipe holds
    let received = Box<Int>()
    Thread {
      let bytes = (try? readEnd.readToEnd()) ?? []
      try? readEnd.close()
      received.set(bytes.count)
    }.start()
    if waiting {
      try payload.withUnsafeBytes { try writeEnd.writeAll(from: $0, waitingForRoom: true) }
      try writeEnd.close()
      #expect(Deadline.wait { received.isSet } && received.get() == payload.count)
    } else {
      #expect(throws: Errno.wouldBlock) {
        try payload.withUnsafeBytes { try writeEnd.writeAll(from: $0) }
      }
      try writeEnd.close()
    }
  }

  @Test func closeOnExecPipeEndsAreCloseOnExec() throws {
    try withPipe { readEnd, writeEnd in
      for end in [readEnd, writeEnd] {
        #expect(end.rawValue > 2)
        #expect(fcntl(end.rawValue, F_GETFD) & FD_CLOEXEC != 0)
      }
    }
  }
}

/// Waits for a condition with a deadline (never a bare sleep).
enum Deadline {
  static func wait(for limit: Duration = .seconds(10), _ condition: () -> Bool) -> Bool {
    let end = ContinuousClock.now + limit
    while ContinuousClock.now < end {
      if condition() { return true }
      usleep(2_000)
    }
    return condition()
  }
}
