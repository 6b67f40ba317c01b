import Dispatch
import FerrySystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One `ssh` child: its standard input and output are the link, its standard error is read
/// for the last line, which says why a link failed ("Host key verification failed.").
final class SSHProcess: @unchecked Sendable {
  /// The link over the child's pipes.
  let channel: FramedChannel
  /// The child.
  let process: ChildProcessID
  private let lastLine = LastLine()
  private let stderrDone = DispatchSemaphore(value: 0)

  /// Starts `command`.
  ///
  /// - Throws: `Errno` when the pipes or the process cannot be made.
  init(_ command: SSHCommand, echoStandardError: Bool) throws(Errno) {
    let (childInput, toChild) = try FileDescriptor.closeOnExecPipe()
    let (fromChild, childOutput) = try FileDescriptor.closeOnExecPipe()
    let (errors, childErrors) = try FileDescriptor.closeOnExecPipe()
    defer {
      try? childInput.close()
      try? childOutput.close()
      try? childErrors.close()
    }
    let arguments = command.argumentVector
    process = try ChildLaunch(
      path: arguments[0], arguments: arguments,
      descriptors: [
        .duplicate(childInput, as: 0), .duplicate(childOutput, as: 1),
        .duplicate(childErrors, as: 2), .closeAll(from: 3),
      ],
      group: .own
    ).spawn()
    channel = FramedChannel(input: fromChild, output: toChild)
    let (lastLine, done) = (self.lastLine, stderrDone)
    DetachedThread.start(name: "ferry-ssh-err") {
      var pending: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = buffer.withUnsafeMutableBytes { raw in
          (try? errors.readWaiting(into: raw)) ?? 0
        }
        if count == 0 { break }
        if echoStandardError {
          buffer.withUnsafeBytes { raw in
            _ = try? FileDescriptor.standardError.writeAll(
              from: UnsafeRawBufferPointer(rebasing: raw[..<count]), waitingForRoom: true)
          }
        }
        pending += buffer[..<count]
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
          Self.keep(pending[..<newline], in: lastLine)
          pending.removeSubrange(...newline)
        }
        if pending.count > 4096 { pending.removeFirst(pending.count - 4096) }
      }
      Self.keep(pending[...], in: lastLine)
      try? errors.close()
      done.signal()
    }
  }

  private static func keep(_ line: ArraySlice<UInt8>, in lastLine: LastLine) {
    // Only printable characters, and not too many: it is shown in status.
    var text = String.UnicodeScalarView()
    for scalar in String(decoding: line, as: UTF8.self).unicodeScalars.prefix(300)
    where scalar.value >= 0x20 && scalar.value != 0x7F {
      text.append(scalar)
    }
    let printable = String(text).split(separator: " ", omittingEmptySubsequences: true)
      .joined(separator: " ")
    guard !printable.isEmpty else { return }
    lastLine.value.withLock { $0 = printable }
  }

  /// The last line ssh (or the remote) wrote to standard error.
  var lastErrorLine: String? { lastLine.value.withLock { $0 } }

  /// Ends the child (its process group: a ProxyCommand too) and waits for it.
  ///
  /// - Returns: How it ended.
  func stop() -> Termination? {
    channel.close()
    // An ssh that ended already (a failed login, a missing remote program) is reaped here: its
    // status is what the link's error names.
    if let ended = (try? process.reapIfEnded()) ?? nil { return finish(ended) }
    // Give it a moment to exit on its own (the link's end closes its input), then stop it.
    for _ in 0..<20 {
      if let ended = (try? process.reapIfEnded()) ?? nil { return finish(ended) }
      usleep(10_000)
    }
    try? process.sendToGroup(SIGTERM)
    let ended = try? process.waitForExit()
    return finish(ended)
  }

  private func finish(_ ended: Termination?) -> Termination? {
    _ = stderrDone.wait(timeout: .now() + .seconds(2))
    try? channel.input.close()
    return ended
  }
}

/// The last line of a stream, shared with the thread that reads it.
final class LastLine: Sendable {
  let value = TrackedMutex<String?>(nil)
}
