import FerrySystem
import SelectionBackendCore

/// A way to stop a pipe transfer that waits on its own thread: a pipe whose reading end the
/// transfer polls beside its data, and a byte written to it when the task that waits for the
/// transfer is cancelled (a newer owner superseded the capture, or its time budget ran out).
///
/// On Wayland a reader may close its end at any moment: the owner's write fails with `EPIPE`
/// and it goes on unharmed. Closed under a lock, so that a cancellation that comes as the
/// transfer ends never writes to a descriptor number the process has reused.
final class TransferStop: Sendable {
  private let ends: TrackedMutex<(read: FileDescriptor, write: FileDescriptor)?>

  /// The end a transfer polls: readable once the transfer should stop.
  let signal: FileDescriptor

  /// A new signal, not yet raised.
  init() throws(BackendError) {
    let pipe = try PipeTransfer.makePipe()
    signal = pipe.read
    ends = TrackedMutex(pipe)
  }

  /// Raises the signal (once the transfer has ended, nothing).
  func stop() {
    ends.withLock { ends in
      guard let write = ends?.write else { return }
      var one: UInt8 = 1
      _ = withUnsafeBytes(of: &one) { try? write.writeAvailable(from: $0) }
    }
  }

  /// Closes both ends; call once the transfer has ended.
  func close() {
    ends.withLock { ends in
      try? ends?.read.close()
      try? ends?.write.close()
      ends = nil
    }
  }

  /// Runs `transfer`, blocking, on a thread of its own, and raises the signal if the calling
  /// task is cancelled meanwhile; `transfer` is given ``signal`` to poll.
  static func run<T: Sendable>(
    name: String, _ transfer: @escaping @Sendable (FileDescriptor) -> Result<T, BackendError>
  ) async throws(BackendError) -> T {
    let stop = try TransferStop()
    defer { stop.close() }
    let result = try? await withTaskCancellationHandler {
      try await DetachedThread.run(name: name) { transfer(stop.signal) }
    } onCancel: {
      stop.stop()
    }
    guard let result else { throw .failed("cannot start a thread for \(name)") }
    return try result.get()
  }
}
