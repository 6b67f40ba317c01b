import FerrySystem
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
      var child: ChildProcessID
      var input: Input
      var inputFile: FileDescriptor?
      var stdin: FileDescriptor
      var stdout: FileDescriptor
      var stderr: FileDescriptor
      /// Readable once the program has exited (written by the reaper thread).
      var exit: FileDescriptor
      /// Readable once the task is cancelled; owned by the caller, never closed here.
      var cancel: FileDescriptor
      var limits: Limits
    }

    /// The size of each read and of each chunk of an input file.
    static let chunkSize = 64 * 1024

    private let plan: Plan
    private let deadline: ContinuousClock.Instant
    private var stdin: FileDescriptor?
    private var stdout: FileDescriptor?
    private var stderr: FileDescriptor?
    private var inputFile: FileDescriptor?
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
        try? descriptor?.close()
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
        try? plan.child.send(SIGKILL)
        try? plan.child.sendToGroup(SIGKILL)
        waitForExit()
      }
      let termination = reap()
      if output.count > plan.limits.outputBytes { output = output.prefix(plan.limits.outputBytes) }
      return Outcome(
        processID: plan.child.rawValue, ending: stop ?? .finished(termination), output: output,
        errorOutput: errorOutput)
    }

    /// One wait in `poll(2)` and the work it allows.
    private func step() {
      guard deadline > .now else {
        stop = .timedOut
        return
      }
      var entries = [PollEntry(plan.exit, for: .readable), PollEntry(plan.cancel, for: .readable)]
      if let stdout { entries.append(PollEntry(stdout, for: .readable)) }
      if let stderr { entries.append(PollEntry(stderr, for: .readable)) }
      if let stdin { entries.append(PollEntry(stdin, for: .writable)) }
      // Nothing ready: the deadline passed (checked on the next step).
      guard let ready = try? Poll.wait(&entries, until: deadline), ready > 0 else { return }
      for entry in entries where entry.isReady {
        switch entry.descriptor {
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
            try? descriptor.close()
            stdin = nil
            return
          }
        }
        do {
          pendingOffset += try pending.withUnsafeBytes { bytes in
            try descriptor.write(UnsafeRawBufferPointer(rebasing: bytes[pendingOffset...]))
          }
        } catch Errno.wouldBlock {
          return
        } catch {
          // EPIPE: the program does not read its input (all of it); that is its business.
          try? descriptor.close()
          stdin = nil
        }
      }
    }

    /// The next chunk of an input file into `pending`; false at the end of the input.
    private func refill() -> Bool {
      guard let file = inputFile else { return false }
      let count: Int
      do {
        count = try Errno.catching { try file.read(into: buffer) }
      } catch {
        stop = .inputFailed(error)
        count = 0
      }
      if count == 0 {
        try? file.close()
        inputFile = nil
        return false
      }
      pending = Data(bytes: buffer.baseAddress!, count: count)
      pendingOffset = 0
      return true
    }

    /// Reads what `descriptor` holds now, keeping the first `limit` bytes in `kept` and
    /// dropping the rest; closes it at end of file. With `stopWhenFull`, returns as soon as
    /// `limit` bytes are kept.
    private func drain(
      _ descriptor: inout FileDescriptor?, into kept: inout Data, keeping limit: Int,
      stopWhenFull: Bool = false
    ) {
      while let open = descriptor {
        do {
          let count = try open.read(into: buffer)
          if count == 0 { break }
          let room = max(0, limit - kept.count)
          kept.append(
            buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: min(room, count))
          if stopWhenFull && kept.count >= limit { return }
        } catch Errno.wouldBlock {
          return
        } catch {
          break
        }
      }
      try? descriptor?.close()
      descriptor = nil
    }

    /// Blocks until the reaper thread reports the exit (after `SIGKILL`: at once).
    private func waitForExit() {
      guard !exited else { return }
      _ = try? plan.exit.wait(for: .readable)
      exited = true
    }

    /// Collects the exit status; the process is gone afterwards.
    private func reap() -> Termination {
      switch try? plan.child.waitForExit() {
      case .exited(let status): .exited(status)
      case .signalled(let signal): .signalled(signal)
      case nil: .unknown
      }
    }
  }
}
