import FerrySystem
import FoundationEssentials
import SelectionBackend

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

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
  /// Wayland the writer learns of a closed pipe (`EPIPE`) and stops, unharmed.
  static func readAll(_ descriptor: FileDescriptor, stepTimeout: Duration, limit: Int, what: String)
    throws(BackendError) -> Data
  {
    defer { try? descriptor.close() }
    _ = fcntl(descriptor.rawValue, F_SETFL, fcntl(descriptor.rawValue, F_GETFL) | O_NONBLOCK)
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      var entries = [PollEntry(descriptor, for: .readable)]
      let ready: Int
      do {
        ready = try Poll.wait(&entries, until: .now + stepTimeout)
      } catch {
        throw .failed("cannot wait for \(what): \(error)")
      }
      guard ready > 0 else { throw .timedOut("waiting for \(what)") }
      let count = buffer.withUnsafeMutableBytes {
        Glibc.read(descriptor.rawValue, $0.baseAddress, $0.count)
      }
      if count == 0 { return data }
      if count < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        throw .failed("cannot read \(what): \(String(cString: strerror(errno)))")
      }
      guard data.count + count <= limit else { throw .tooLarge(limit: limit) }
      data.append(contentsOf: buffer[..<count])
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
    _ = fcntl(descriptor.rawValue, F_SETFL, fcntl(descriptor.rawValue, F_GETFL) | O_NONBLOCK)
    return data.withUnsafeBytes { bytes -> Bool in
      var offset = 0
      while offset < bytes.count {
        var entries = [PollEntry(descriptor, for: .writable)]
        guard let ready = try? Poll.wait(&entries, until: .now + stepTimeout), ready > 0 else {
          return false
        }
        let count = Glibc.write(
          descriptor.rawValue, bytes.baseAddress! + offset, min(bytes.count - offset, 1 << 16))
        if count < 0 {
          if errno == EINTR || errno == EAGAIN { continue }
          return false  // EPIPE: the reader went away
        }
        offset += count
      }
      return true
    }
  }
}

extension PipeTransfer {
  /// Copies `input` to `output` as it arrives, in chunks of up to 1 MiB, waiting at most
  /// `stepTimeout` for each, and closes `input`: a large paste is never held whole.
  ///
  /// - Throws: ``BackendError/timedOut(_:)``, or ``BackendError/failed(_:)`` when the output
  ///   cannot be written.
  static func copy(
    _ input: FileDescriptor, to output: FileDescriptor, stepTimeout: Duration, what: String
  )
    throws(BackendError)
  {
    defer { try? input.close() }
    _ = fcntl(input.rawValue, F_SETFL, fcntl(input.rawValue, F_GETFL) | O_NONBLOCK)
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
    defer { buffer.deallocate() }
    while true {
      var entries = [PollEntry(input, for: .readable)]
      guard (try? Poll.wait(&entries, until: .now + stepTimeout)) ?? 0 > 0 else {
        throw .timedOut("waiting for \(what)")
      }
      let count = Glibc.read(input.rawValue, buffer.baseAddress, buffer.count)
      if count == 0 { return }
      if count < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        throw .failed("cannot read \(what): \(String(cString: strerror(errno)))")
      }
      do {
        try output.writeAll(
          from: UnsafeRawBufferPointer(rebasing: buffer[..<count]), waitingForRoom: true)
      } catch {
        throw .failed("cannot write the output: \(error)")
      }
    }
  }

  /// Writes as much of `data` as `descriptor` takes now, without waiting.
  ///
  /// - Returns: How many bytes were written; `nil` when the reader has gone (`EPIPE`).
  static func writeNow(_ data: Data, to descriptor: FileDescriptor) -> Int? {
    _ = fcntl(descriptor.rawValue, F_SETFL, fcntl(descriptor.rawValue, F_GETFL) | O_NONBLOCK)
    return data.withUnsafeBytes { bytes -> Int? in
      var offset = 0
      while offset < bytes.count {
        let count = Glibc.write(
          descriptor.rawValue, bytes.baseAddress! + offset, bytes.count - offset)
        if count < 0 {
          if errno == EINTR { continue }
          return errno == EAGAIN ? offset : nil
        }
        offset += count
      }
      return offset
    }
  }
}
