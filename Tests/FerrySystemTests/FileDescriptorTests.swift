import FerrySystem
import FerryTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct FileDescriptorTests {
  @Test func readWaitingGoesOnAfterInterruptions() throws {
    let (readEnd, writeEnd) = try FileDescriptor.closeOnExecPipe()
    defer { try? readEnd.close() }
    let (result, signals, _) = Interrupter.run(
      { () -> Result<[UInt8], Errno> in
        var buffer = [UInt8](repeating: 0, count: 16)
        return Result { () throws(Errno) in
          let count = try buffer.withUnsafeMutableBytes { raw in
            Result { () throws(Errno) in try readEnd.readWaiting(into: raw) }
          }.get()
          return Array(buffer.prefix(count))
        }
      },
      afterwards: {
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
    // The write comes once the reader is seen asleep in its wait (its read found nothing);
    // a reader that spun on EAGAIN instead would never be seen asleep.
    let reader = try #require(currentThreadID())
    let wrote = Box<Bool>()
    Thread {
      wrote.set(Deadline.wait(for: .seconds(10)) { threadIsAsleep(reader) })
      _ = try? writeEnd.writeAll(Array("x".utf8))
      try? writeEnd.close()
    }.start()
    var byte: UInt8 = 0
    let count = try withUnsafeMutableBytes(of: &byte) { try readEnd.readWaiting(into: $0) }
    #expect(count == 1 && byte == UInt8(ascii: "x"))
    #expect(wrote.get() == true, "the reader was seen waiting before the write")
  }

  @Test func readFillingCollectsShortReads() throws {
    let (readEnd, writeEnd) = try FileDescriptor.closeOnExecPipe()
    defer { try? readEnd.close() }
    // Each part is written once the reader has taken the one before: three short reads.
    let drained = Box<Bool>()
    Thread {
      var allTaken = true
      for part in ["ab", "cd", "ef"] {
        _ = try? writeEnd.writeAll(Array(part.utf8))
        allTaken = Deadline.wait(for: .seconds(10)) { bytesWaiting(in: readEnd) == 0 } && allTaken
      }
      drained.set(allTaken)
      try? writeEnd.close()
    }.start()
    var buffer = [UInt8](repeating: 0, count: 8)
    let count = try buffer.withUnsafeMutableBytes { try readEnd.read(filling: $0) }
    #expect(count == 6, "stopped only at the end of the input")
    #expect(buffer.prefix(count) == Array("abcdef".utf8)[...])
    #expect(drained.get() == true, "each part was read on its own")
  }

  @Test func readFillingGoesOnAfterInterruptions() throws {
    let (readEnd, writeEnd) = try FileDescriptor.closeOnExecPipe()
    defer { try? readEnd.close() }
    let (result, signals, _) = Interrupter.run(
      { () -> Result<Int, Errno> in
        var buffer = [UInt8](repeating: 0, count: 4)
        return buffer.withUnsafeMutableBytes { raw in
          Result { () throws(Errno) in try readEnd.read(filling: raw) }
        }
      },
      afterwards: {
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
    let count = try buffer.withUnsafeMutableBytes {
      try file.read(fromAbsoluteOffset: 8, filling: $0)
    }
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
    // The reader starts only for the waiting write: draining the pipe beside a write that does
    // not wait let it succeed now and then (a clean clone of 18fa441 under load).
    if waiting {
      Thread {
        let bytes = (try? readEnd.readToEnd()) ?? []
        try? readEnd.close()
        received.set(bytes.count)
      }.start()
      try payload.withUnsafeBytes { try writeEnd.writeAll(from: $0, waitingForRoom: true) }
      try writeEnd.close()
      #expect(
        Deadline.wait(for: .seconds(10)) { received.isSet } && received.get() == payload.count)
    } else {
      #expect(throws: Errno.wouldBlock) {
        try payload.withUnsafeBytes { try writeEnd.writeAll(from: $0) }
      }
      try writeEnd.close()
      try readEnd.close()
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

/// The calling thread's ID (its directory under `/proc/self/task`).
func currentThreadID() -> pid_t? {
  guard let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")
  else { return nil }
  return link.split(separator: "/").last.flatMap { pid_t($0) }
}

/// Whether the thread `id` of this process is asleep (state `S` in `/proc`): blocked in a
/// wait, such as poll(2) on an empty pipe.
func threadIsAsleep(_ id: pid_t) -> Bool {
  guard let stat = try? String(contentsOfFile: "/proc/self/task/\(id)/stat", encoding: .utf8),
    let close = stat.lastIndex(of: ")")
  else { return false }
  return stat[close...].dropFirst(2).first == "S"
}

/// How many bytes wait in the pipe whose read end is `readEnd` (`FIONREAD`).
func bytesWaiting(in readEnd: FileDescriptor) -> Int {
  var count: CInt = 0
  return ioctl(readEnd.rawValue, UInt(FIONREAD), &count) == 0 ? Int(count) : -1
}
