import FerrySystem
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The system calls the Wayland client makes through FerrySystem: reads and writes that
/// never wait, messages with descriptors beside them, a Unix socket connected by path, and
/// the wake-up pipe of a polling thread.
@Suite struct NonBlockingDescriptorTests {
  /// A connected pair of stream sockets, non-blocking.
  private func socketPair() throws -> (FileDescriptor, FileDescriptor) {
    var ends: [Int32] = [-1, -1]
    try #require(
      socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends)
        == 0)
    let pair = (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1]))
    try pair.0.setNonBlocking()
    try pair.1.setNonBlocking()
    return pair
  }

  @Test func aReadOfAnEmptyPipeIsNilAndAFullPipesWriteIsNil() throws {
    let (readEnd, writeEnd) = try FileDescriptor.closeOnExecPipe()
    defer {
      try? readEnd.close()
      try? writeEnd.close()
    }
    try readEnd.setNonBlocking()
    try writeEnd.setNonBlocking()
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    #expect(try buffer.withUnsafeMutableBytes { try readEnd.readAvailable(into: $0) } == nil)
    var written = 0
    let chunk = [UInt8](repeating: 7, count: 1 << 16)
    while let count = try chunk.withUnsafeBytes({ try writeEnd.writeAvailable(from: $0) }) {
      written += count
      try #require(written < 64 << 20, "the pipe never filled")
    }
    #expect(written >= 4096, "a pipe holds at least a page")
    var read = 0
    while let count = try buffer.withUnsafeMutableBytes({ try readEnd.readAvailable(into: $0) }) {
      read += count
    }
    #expect(read == written)
    try writeEnd.close()
    #expect(try buffer.withUnsafeMutableBytes { try readEnd.readAvailable(into: $0) } == 0)
  }

  @Test func aWriteToAPipeWhoseReaderWentIsBrokenPipeNotASignal() throws {
    ProcessEnvironment.ignoreBrokenPipes()
    let (readEnd, writeEnd) = try FileDescriptor.closeOnExecPipe()
    defer { try? writeEnd.close() }
    try readEnd.close()
    #expect(throws: Errno.brokenPipe) {
      _ = try [UInt8(1)].withUnsafeBytes { try writeEnd.writeAvailable(from: $0) }
    }
  }

  @Test func aMessageCarriesItsDescriptorsAndTheEndIsZero() throws {
    let (one, other) = try socketPair()
    defer { try? one.close() }
    let (pipeRead, pipeWrite) = try FileDescriptor.closeOnExecPipe()
    defer {
      try? pipeRead.close()
      try? pipeWrite.close()
    }
    let sent = try Array("hello".utf8).withUnsafeBytes {
      try one.sendMessage($0, descriptors: [pipeWrite.rawValue])
    }
    #expect(sent == 5)
    var buffer = [UInt8](repeating: 0, count: 64)
    var descriptors = [Int32](repeating: -1, count: 4)
    let received = try #require(
      try buffer.withUnsafeMutableBytes {
        try other.receiveMessage(into: $0, descriptors: &descriptors)
      })
    #expect(received.bytes == 5 && received.descriptors == 1)
    #expect(String(decoding: buffer[..<5], as: UTF8.self) == "hello")
    // The descriptor that came is a pipe's writing end of its own: a byte through it arrives.
    let copy = FileDescriptor(rawValue: descriptors[0])
    #expect(copy.rawValue != pipeWrite.rawValue)
    _ = try [UInt8(9)].withUnsafeBytes { try copy.writeAvailable(from: $0) }
    try copy.close()
    var byte = [UInt8](repeating: 0, count: 1)
    #expect(try byte.withUnsafeMutableBytes { try pipeRead.readAvailable(into: $0) } == 1)
    #expect(byte == [9])
    // Nothing more yet, then the end.
    #expect(
      try buffer.withUnsafeMutableBytes {
        try other.receiveMessage(into: $0, descriptors: &descriptors)
      } == nil)
    try other.close()
    let end = try #require(
      try buffer.withUnsafeMutableBytes {
        try one.receiveMessage(into: $0, descriptors: &descriptors)
      })
    #expect(end.bytes == 0)
  }

  @Test func aUnixSocketConnectsByPathAndAMissingOneSaysSo() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ferry-socket-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("s").path
    #expect(throws: Errno.noSuchFileOrDirectory) {
      _ = try FileDescriptor.connectedUnixStream(path: path)
    }
    #expect(throws: Errno.fileNameTooLong) {
      _ = try FileDescriptor.connectedUnixStream(path: "/" + String(repeating: "x", count: 200))
    }
    let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    try #require(listener >= 0)
    defer { _ = Glibc.close(listener) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    try #require(bound == 0 && listen(listener, 1) == 0)
    let connected = try FileDescriptor.connectedUnixStream(path: path)
    defer { try? connected.close() }
    let accepted = accept(listener, nil, nil)
    #expect(accepted >= 0, "the listener saw the connection")
    if accepted >= 0 { _ = Glibc.close(accepted) }
  }

  @Test func aWakeUpMakesTheReadEndReadableUntilDrainedHoweverManyCame() throws {
    let wakeUp = try WakeUpPipe()
    defer { wakeUp.close() }
    var entries = [PollEntry(wakeUp.readEnd, for: .readable)]
    #expect(try Poll.wait(&entries, until: .now) == 0)
    for _ in 0..<100_000 { wakeUp.wake() }  // past the pipe's room: none blocks
    entries = [PollEntry(wakeUp.readEnd, for: .readable)]
    #expect(try Poll.wait(&entries, until: .now) == 1)
    wakeUp.drain()
    entries = [PollEntry(wakeUp.readEnd, for: .readable)]
    #expect(try Poll.wait(&entries, until: .now) == 0)
  }
}
