import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension ChildProcess {
  /// The `poll(2)` loop of one run, on a thread of its own: feeds standard input, reads
  /// standard output and error, enforces the limits, then kills if needed and reaps.
  final class Supervisor {
    /// The descriptors and limits of a run, handed from the spawning task to the thread.
    struct Plan: Sendable {
      var pid: pid_t
      var input: Input
      var inputFile: Int32?
      var stdin: Int32
      var stdout: Int32
      var stderr: Int32
      /// Readable once the program has exited (written by the reaper thread).
      var exit: Int32
      /// Readable once the task is cancelled; owned by the caller, never closed here.
      var cancel: Int32
      var limits: Limits
    }

    /// The size of each read and of each chunk of an input file.
    static let chunkSize = 64 * 1024

    private let plan: Plan
    private let deadline: ContinuousClock.Instant
    private var stdin: Int32?
    private var stdout: Int32?
    private var stderr: Int32?
    private var inputFile: Int32?
    /// Bytes waiting to be written to standard input, from `pendingOffset` on.
    private var pending = Data()
    private var pendingOffset = 0
    private var output = Data()
    private var errorOutput = Data()
    private var exited = false
    private var stop: Ending?
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)

    init(_ plan: Plan) {
      self.plan = plan
      deadline = .now + plan.limits.time
      (stdin, stdout, stderr, inputFile) = (plan.stdin, plan.stdout, plan.stderr, plan.inputFile)
      if case .data(let data) = plan.input { pending = data }
    }

    deinit {
      buffer.deallocate()
      for descriptor in [stdin, stdout, stderr, inputFile, plan.exit] {
        if let descriptor { close(descriptor) }
      }
    }

    /// Runs the loop to the end. The process is reaped when this returns.
    func run() -> Outcome {
      // A write to a pipe whose reader is gone raises SIGPIPE on this thread; blocked, it
      // stays pending and is dropped when the thread ends, and the write fails with EPIPE.
      var blocked = sigset_t()
      sigemptyset(&blocked)
      sigaddset(&blocked, SIGPIPE)
      pthread_sigmask(SIG_BLOCK, &blocked, nil)

      feed()
      while stop == nil && !exited { step() }
      if stop == nil {
        // Exited: what it wrote before exiting is in the pipes.
        drain(&stdout, into: &output, keeping: plan.limits.outputBytes + 1, stopWhenFull: true)
        drain(&stderr, into: &errorOutput, keeping: plan.limits.errorBytes)
        if output.count > plan.limits.outputBytes { stop = .outputTooLarge }
      }
      if stop != nil {
        // Not reaped yet, so the ID (and the group's) cannot have been recycled.
        kill(plan.pid, SIGKILL)
        kill(-plan.pid, SIGKILL)
        waitForExit()
      }
      let termination = reap()
      if output.count > plan.limits.outputBytes { output = output.prefix(plan.limits.outputBytes) }
      return Outcome(
        processID: plan.pid, ending: stop ?? .finished(termination), output: output,
        errorOutput: errorOutput)
    }

    /// One wait in `poll(2)` and the work it allows.
    private func step() {
      let remaining = deadline - .now
      guard remaining > .zero else {
        stop = .timedOut
        return
      }
      var descriptors = [
        pollfd(fd: plan.exit, events: Int16(POLLIN), revents: 0),
        pollfd(fd: plan.cancel, events: Int16(POLLIN), revents: 0),
      ]
      if let stdout { descriptors.append(pollfd(fd: stdout, events: Int16(POLLIN), revents: 0)) }
      if let stderr { descriptors.append(pollfd(fd: stderr, events: Int16(POLLIN), revents: 0)) }
      if let stdin { descriptors.append(pollfd(fd: stdin, events: Int16(POLLOUT), revents: 0)) }
      let ready = poll(&descriptors, nfds_t(descriptors.count), Self.milliseconds(remaining))
      guard ready > 0 else { return }  // timeout (checked on the next step) or EINTR
      for descriptor in descriptors where descriptor.revents != 0 {
        switch descriptor.fd {
        case plan.exit: exited = true
        case plan.cancel: stop = .cancelled
        case stdout:
          drain(&stdout, into: &output, keeping: plan.limits.outputBytes + 1, stopWhenFull: true)
        case stderr: drain(&stderr, into: &errorOutput, keeping: plan.limits.errorBytes)
        default: feed()
        }
      }
      if output.count > plan.limits.outputBytes { stop = .outputTooLarge }
    }

    /// Writes standard input until the pipe is full or the input ends; closes it at the end
    /// of the input or when the program has closed its end.
    private func feed() {
      while let descriptor = stdin {
        if pendingOffset == pending.count {
          guard refill() else {
            close(descriptor)
            stdin = nil
            return
          }
        }
        let written = pending.withUnsafeBytes { bytes in
          write(descriptor, bytes.baseAddress! + pendingOffset, bytes.count - pendingOffset)
        }
        if written > 0 {
          pendingOffset += written
        } else if errno == EINTR {
          continue
        } else if errno == EAGAIN || errno == EWOULDBLOCK {
          return
        } else {
          // EPIPE: the program does not read its input (all of it); that is its business.
          close(descriptor)
          stdin = nil
        }
      }
    }

    /// The next chunk of an input file into `pending`; false at the end of the input.
    private func refill() -> Bool {
      guard let file = inputFile else { return false }
      while true {
        let count = read(file, buffer.baseAddress!, Self.chunkSize)
        if count < 0 && errno == EINTR { continue }
        if count < 0 { stop = .inputFailed(errno) }
        if count <= 0 {
          close(file)
          inputFile = nil
          return false
        }
        pending = Data(bytes: buffer.baseAddress!, count: count)
        pendingOffset = 0
        return true
      }
    }

    /// Reads what `descriptor` holds now, keeping the first `limit` bytes in `kept` and
    /// dropping the rest; closes it at end of file. With `stopWhenFull`, returns as soon as
    /// `limit` bytes are kept.
    private func drain(
      _ descriptor: inout Int32?, into kept: inout Data, keeping limit: Int,
      stopWhenFull: Bool = false
    ) {
      while let open = descriptor {
        let count = read(open, buffer.baseAddress!, Self.chunkSize)
        if count > 0 {
          let room = max(0, limit - kept.count)
          kept.append(
            buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: min(room, count))
          if stopWhenFull && kept.count >= limit { return }
        } else if count < 0 && errno == EINTR {
          continue
        } else if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
          return
        } else {
          close(open)
          descriptor = nil
        }
      }
    }

    /// Blocks until the reaper thread reports the exit (after `SIGKILL`: at once).
    private func waitForExit() {
      guard !exited else { return }
      var descriptor = pollfd(fd: plan.exit, events: Int16(POLLIN), revents: 0)
      while poll(&descriptor, 1, -1) < 0 && errno == EINTR {}
      exited = true
    }

    /// Collects the exit status; the process is gone afterwards.
    private func reap() -> Termination {
      var status: Int32 = 0
      while true {
        if waitpid(plan.pid, &status, 0) == plan.pid { break }
        if errno != EINTR { return .unknown }
      }
      // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift cannot import.
      let signal = status & 0x7F
      return signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
    }

    /// `duration` in whole milliseconds, rounded up so the loop never wakes just early.
    static func milliseconds(_ duration: Duration) -> Int32 {
      let (seconds, attoseconds) = duration.components
      let total = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
      return Int32(clamping: max(0, total))
    }
  }
}
