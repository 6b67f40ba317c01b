import FerrySystem
import FoundationEssentials
import SelectionBackendCore

/// The two ends of a Wayland transfer, a pipe between the owner and the reader, run on a
/// thread of their own (never on the Wayland thread, which must keep dispatching: reading
/// Ferry's own offer needs its `send` answered there). Every step waits at most its timeout;
/// a peer that closes its end early ends the transfer, never the process (SIGPIPE is ignored).
enum PipeTransfer {
  /// A new pipe whose ends close on exec.
  static func makePipe() throws(BackendError) -> (read: FileDescriptor, write: FileDescriptor) {
    do {
      let ends = try FileDescriptor.closeOnExecPipe()
      return (ends.readEnd, ends.writeEnd)
    } catch {
      throw .failed("cannot make a pipe: \(error)")
    }
  }

  /// Reads `descriptor` to its end, waiting at most `stepTimeout` for each chunk, and closes
  /// it. More than `limit` bytes ends the read with ``BackendError/tooLarge(limit:)``: on
  /// Wayland the writer learns of a closed pipe (`EPIPE`) and stops, unharmed. So does `stop`
  /// becoming readable (``TransferStop``), with ``BackendError/failed(_:)``.
  static func readAll(
    _ descriptor: FileDescriptor, stepTimeout: Duration, limit: Int, what: String,
    stop: FileDescriptor? = nil
  )
    throws(BackendError) -> Data
  {
    defer { try? descriptor.close() }
    try? descriptor.setNonBlocking()
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: defaultPipeSize)
    var triedEnlarging = false
    while true {
      // Read first and wait only when the pipe is empty (as in `copy(_:to:stepTimeout:what:)`).
      let read = buffer.withUnsafeMutableBytes { bytes in
        Result { () throws(Errno) in try descriptor.readAvailable(into: bytes) }
      }
      let count: Int
      switch read {
      case .failure(let error): throw .failed("cannot read \(what): \(error)")
      case .success(nil):  // nothing yet
        try wait(for: descriptor, stop: stop, stepTimeout: stepTimeout, what: what)
        continue
      case .success(0?): return data
      case .success(let available?): count = available
      }
      guard data.count + count <= limit else { throw .tooLarge(limit: limit) }
      data.append(contentsOf: buffer[..<count])
      if count == defaultPipeSize && !triedEnlarging {
        triedEnlarging = true
        if enlarge(descriptor) { buffer = [UInt8](repeating: 0, count: largePipeSize) }
      }
    }
  }

  /// Waits until `descriptor` is readable, at most `stepTimeout`.
  ///
  /// - Throws: ``BackendError/timedOut(_:)``; ``BackendError/failed(_:)`` when `stop` became
  ///   readable first.
  private static func wait(
    for descriptor: FileDescriptor, stop: FileDescriptor?, stepTimeout: Duration, what: String
  ) throws(BackendError) {
    var entries = [PollEntry(descriptor, for: .readable)]
    if let stop { entries.append(PollEntry(stop, for: .readable)) }
    let ready: Int
    do {
      ready = try Poll.wait(&entries, until: .now + stepTimeout)
    } catch {
      throw .failed("cannot wait for \(what): \(error)")
    }
    guard ready > 0 else { throw .timedOut("waiting for \(what)") }
    if entries.count > 1, entries[1].isReady, !entries[0].isReady {
      throw .failed("stopped waiting for \(what): the capture was superseded or ran out of time")
    }
  }

  /// Writes `data` to `descriptor`, waiting at most `stepTimeout` for room for each chunk,
  /// and closes it.
  ///
  /// - Returns: Whether every byte was written (`false`: the reader closed its end or was too
  ///   slow).
  @discardableResult
  static func writeAll(_ data: Data, to descriptor: FileDescriptor, stepTimeout: Duration) -> Bool {
    defer { try? descriptor.close() }
    try? descriptor.setNonBlocking()
    let chunk =
      data.count > defaultPipeSize && enlarge(descriptor) ? largePipeSize : defaultPipeSize
    return data.withUnsafeBytes { bytes -> Bool in
      var offset = 0
      while offset < bytes.count {
        // Write first and wait only when the pipe is full.
        let part = UnsafeRawBufferPointer(
          rebasing: bytes[offset..<min(bytes.count, offset + chunk)])
        let written = Result { () throws(Errno) in try descriptor.writeAvailable(from: part) }
        guard case .success(let count) = written else { return false }  // EPIPE: reader gone
        guard let count else {
          var entries = [PollEntry(descriptor, for: .writable)]
          guard let ready = try? Poll.wait(&entries, until: .now + stepTimeout), ready > 0 else {
            return false
          }
          continue
        }
        offset += count
      }
      return true
    }
  }

  /// A pipe's buffer as Linux makes it: 64 KiB.
  static let defaultPipeSize = 1 << 16

  /// The buffer a large transfer's pipe is given: 1 MiB, Linux's default
  /// `/proc/sys/fs/pipe-max-size`. A 100 MiB transfer through 64 KiB is 1,600 hand-overs
  /// between writer and reader, each a wake-up on the other core; through 1 MiB it is 100,
  /// and the paste took 0.8× wl-paste's time instead of 1.15×
  /// (docs/log/2026-12-02-performance.md, "Wayland").
  static let largePipeSize = 1 << 20

  /// Gives `pipe` (either end) a buffer of ``largePipeSize``, once a transfer has shown itself
  /// large (a full 64 KiB at once): a short paste keeps the default, and a user's many
  /// transfers do not reach the kernel's per-user limit on pipe pages.
  ///
  /// - Returns: Whether the pipe has the larger buffer now (`false`: the limit was reached,
  ///   or it is not a pipe; the transfer goes on as it was).
  @discardableResult
  static func enlarge(_ pipe: FileDescriptor) -> Bool {
    ((try? pipe.setPipeSize(atLeast: largePipeSize)) ?? 0) >= largePipeSize
  }
}

extension PipeTransfer {
  /// Copies `input` to `output` as it arrives, waiting at most `stepTimeout` for each chunk,
  /// and closes `input`: a large paste is never held whole.
  ///
  /// The kernel moves the bytes (`splice(2)`) when `output` can take them that way — a pipe,
  /// a file, `/dev/null` — so they never pass through this process; otherwise (a terminal)
  /// they are read and written in chunks of up to 1 MiB.
  ///
  /// - Throws: ``BackendError/timedOut(_:)``, or ``BackendError/failed(_:)`` when the output
  ///   cannot be written.
  static func copy(
    _ input: FileDescriptor, to output: FileDescriptor, stepTimeout: Duration, what: String
  )
    throws(BackendError)
  {
    defer { try? input.close() }
    try? input.setNonBlocking()
    var buffer: UnsafeMutableRawBufferPointer?
    defer { buffer?.deallocate() }
    var splicing = true
    var triedEnlarging = false
    while true {
      // Move first and wait only when the pipe is empty: a fast owner keeps it full.
      let moved: Int?
      do throws(Errno) {
        if splicing {
          do {
            moved = try input.splice(to: output, length: 1 << 20)
          } catch .invalidArgument {
            splicing = false  // a terminal: read and written instead
            continue
          }
        } else {
          if buffer == nil {
            buffer = .allocate(byteCount: 1 << 20, alignment: 4096)
          }
          moved = try input.readAvailable(into: buffer!)
        }
      } catch {
        throw splicing && error != .badFileDescriptor
          ? .failed("cannot write the output: \(error)")
          : .failed("cannot read \(what): \(error)")
      }
      guard let count = moved else {
        try waitForRoomOrBytes(input, output, stepTimeout: stepTimeout, what: what)
        continue
      }
      if count == 0 { return }
      if count >= defaultPipeSize && !triedEnlarging {
        triedEnlarging = true
        enlarge(input)
      }
      if !splicing {
        do {
          try output.writeAll(
            from: UnsafeRawBufferPointer(rebasing: buffer![..<count]), waitingForRoom: true)
        } catch {
          throw .failed("cannot write the output: \(error)")
        }
      }
    }
  }

  /// Waits until `input` has bytes (at most `stepTimeout`) and, when it has them, until
  /// `output` has room: a non-blocking splice into a full pipe says `EAGAIN` as an empty
  /// input does.
  private static func waitForRoomOrBytes(
    _ input: FileDescriptor, _ output: FileDescriptor, stepTimeout: Duration, what: String
  ) throws(BackendError) {
    var entries = [PollEntry(input, for: .readable)]
    guard (try? Poll.wait(&entries, until: .now)) ?? 0 > 0 else {
      guard (try? Poll.wait(&entries, until: .now + stepTimeout)) ?? 0 > 0 else {
        throw .timedOut("waiting for \(what)")
      }
      return
    }
    var room = [PollEntry(output, for: .writable)]
    _ = try? Poll.wait(&room, until: nil)
  }

  /// Writes as much of `data` as `descriptor` takes now, without waiting.
  ///
  /// - Returns: How many bytes were written; `nil` when the reader has gone (`EPIPE`).
  static func writeNow(_ data: Data, to descriptor: FileDescriptor) -> Int? {
    try? descriptor.setNonBlocking()
    return data.withUnsafeBytes { bytes -> Int? in
      var offset = 0
      while offset < bytes.count {
        let part = UnsafeRawBufferPointer(rebasing: bytes[offset...])
        switch Result(catching: { () throws(Errno) in try descriptor.writeAvailable(from: part) }) {
        case .success(let count?): offset += count
        case .success(nil): return offset  // full
        case .failure: return nil  // EPIPE: the reader went away
        }
      }
      return offset
    }
  }
}
