import CWaylandDataControl
import DetachedThreads
import FerrySystem
import FoundationEssentials
import SelectionBackend

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One connection to a Wayland compositor's data-control protocol, and the thread that is
/// the only one to touch it.
///
/// `ext-data-control-v1` is bound when the compositor offers it, `zwlr_data_control_manager_v1`
/// (version 2 at most, for PRIMARY) otherwise, and both go through one code path (their
/// requests and events are the same, in the same order). The thread polls the display and a
/// wake-up descriptor; work from other threads reaches it as jobs (``perform(_:)``). Every
/// listener slot is filled: libwayland aborts on an event whose slot is empty.
final class WaylandConnection: @unchecked Sendable {
  // Everything below is touched on the Wayland thread only, but for what `init` sets up
  // before the thread starts and the job queue, which has its own lock.
  let display: OpaquePointer
  let state: WaylandState
  /// A pipe whose reading end the thread polls beside the display: a byte wakes it for jobs.
  private let wake: (read: FileDescriptor, write: FileDescriptor)
  /// Jobs for the thread, and whether it has ended (jobs then run at once, and fail).
  private let jobs = TrackedMutex<(queue: [@Sendable (WaylandConnection) -> Void], ended: Bool)>(([], false))
  let listeners = WaylandListeners()
  /// How long a reader of Ferry's sources may take for each chunk.
  let servingStepTimeout: Duration

  /// Connects to `socket` (`nil`: `$WAYLAND_DISPLAY`), binds the seat and the data-control
  /// manager, reads the current selections, and starts the thread.
  ///
  /// - Throws: ``BackendError/cannotConnect(_:)``, also when the compositor has no
  ///   data-control protocol (GNOME, weston).
  init(socket: String?, servingStepTimeout: Duration = .seconds(5)) throws(BackendError) {
    self.servingStepTimeout = servingStepTimeout
    guard let display = wl_display_connect(socket) else {
      let name = socket ?? getenv("WAYLAND_DISPLAY").map { String(cString: $0) } ?? ""
      throw .cannotConnect("cannot connect to the Wayland display \(name.isEmpty ? "(WAYLAND_DISPLAY is not set)" : name)")
    }
    self.display = display
    state = WaylandState(marker: FerryMarker.name)
    do throws(BackendError) {
      wake = try PipeTransfer.makePipe()
      for end in [wake.read, wake.write] {
        _ = fcntl(end.rawValue, F_SETFL, fcntl(end.rawValue, F_GETFL) | O_NONBLOCK)
      }
      try setUp()
    } catch {
      wl_display_disconnect(display)
      throw error
    }
    signal(SIGPIPE, SIG_IGN)
    let started = DetachedThread.start(name: "ferry-wayland") { [self] in run() }
    guard started else { throw .failed("cannot start the Wayland thread") }
  }

  deinit {
    try? wake.read.close()
    try? wake.write.close()
  }

  var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

  /// Binds what the registry announces, then the data device, and waits for the current
  /// selections: all on the calling thread, before the Wayland thread exists.
  private func setUp() throws(BackendError) {
    state.registry = wl_display_get_registry(display)
    wl_registry_add_listener(state.registry, listeners.registry, context)
    try roundtrip()
    guard let seat = state.seat else { throw .cannotConnect("the Wayland compositor has no seat") }
    guard let manager = state.manager else {
      throw .cannotConnect(
        "the Wayland compositor offers no data-control protocol (ext-data-control-v1 or wlr-data-control; GNOME and weston have neither): X11 programs still work through XWayland and DISPLAY, and the broker's socket works everywhere")
    }
    state.device = ferry_dc_get_data_device(state.ext, UnsafeMutableRawPointer(manager), seat)
    _ = ferry_dc_add_device_listener(state.device, listeners.device, context)
    try roundtrip()
  }

  /// `wl_display_sync`, dispatched until its `done`, on the calling thread (setup only).
  private func roundtrip() throws(BackendError) {
    var done = false
    try withUnsafeMutablePointer(to: &done) { flag throws(BackendError) in
      let callback = wl_display_sync(display)
      wl_callback_add_listener(callback, listeners.callback, flag)
      let deadline = ContinuousClock.now + .seconds(10)
      while !flag.pointee {
        guard wl_display_dispatch_pending(display) >= 0 else { throw .connectionLost }
        if flag.pointee { break }
        guard wl_display_flush(display) >= 0 || errno == EAGAIN else { throw .connectionLost }
        var entries = [PollEntry(FileDescriptor(rawValue: wl_display_get_fd(display)), for: .readable)]
        guard (try? Poll.wait(&entries, until: deadline)) ?? 0 > 0 else {
          throw .cannotConnect("the Wayland compositor did not answer in time")
        }
        guard wl_display_dispatch(display) >= 0 else { throw .connectionLost }
      }
    }
  }

  /// Runs `body` on the Wayland thread and returns what it returns.
  func perform<T: Sendable>(_ body: @escaping @Sendable (WaylandConnection) throws(BackendError) -> T) async throws(BackendError) -> T {
    let result: Result<T, BackendError> = await withCheckedContinuation { continuation in
      submit { connection in
        guard !connection.state.lost else { return continuation.resume(returning: .failure(.connectionLost)) }
        continuation.resume(returning: Result { () throws(BackendError) in try body(connection) })
      }
    }
    return try result.get()
  }

  /// Waits until the compositor has handled every request sent so far, and this connection
  /// has dispatched the events it sent before answering (`wl_display_sync`).
  func sync() async {
    await withCheckedContinuation { continuation in
      submit { connection in
        guard !connection.state.lost else { return continuation.resume() }
        let waiter = Unmanaged.passRetained(SyncWaiter(continuation)).toOpaque()
        let callback = wl_display_sync(connection.display)
        wl_callback_add_listener(callback, connection.listeners.syncCallback, waiter)
      }
    }
  }

  /// Queues `job` for the Wayland thread.
  func submit(_ job: @escaping @Sendable (WaylandConnection) -> Void) {
    let ended = jobs.withLock { jobs in
      if !jobs.ended { jobs.queue.append(job) }
      return jobs.ended
    }
    guard !ended else { return job(self) }  // the state is no longer touched by the thread
    var one: UInt8 = 1
    _ = Glibc.write(wake.write.rawValue, &one, 1)
  }

  /// The jobs queued so far, taken off the queue; with `ending`, no more are queued.
  private func takeJobs(ending: Bool = false) -> [@Sendable (WaylandConnection) -> Void] {
    jobs.withLock { jobs in
      defer { jobs.queue = [] }
      if ending { jobs.ended = true }
      return jobs.queue
    }
  }

  /// The Wayland thread: the documented race-free reading loop (`wl_display_prepare_read`),
  /// with the wake-up descriptor beside the display's, until the connection ends.
  private func run() {
    let descriptor = FileDescriptor(rawValue: wl_display_get_fd(display))
    while !state.closing {
      while wl_display_prepare_read(display) != 0 {
        if wl_display_dispatch_pending(display) < 0 { return connectionLost() }
      }
      if wl_display_flush(display) < 0, errno != EAGAIN {
        wl_display_cancel_read(display)
        return connectionLost()
      }
      var entries = [PollEntry(descriptor, for: .readable), PollEntry(wake.read, for: .readable)]
      let ready = (try? Poll.wait(&entries, until: nil)) ?? 0
      if ready > 0, entries[0].isReady {
        if wl_display_read_events(display) < 0 { return connectionLost() }
      } else {
        wl_display_cancel_read(display)
      }
      if wl_display_dispatch_pending(display) < 0 { return connectionLost() }
      if entries[1].isReady {
        var drained = [UInt8](repeating: 0, count: 256)
        _ = Glibc.read(wake.read.rawValue, &drained, drained.count)
      }
      for job in takeJobs() { job(self) }
      _ = wl_display_flush(display)
    }
    shutDown()
  }

  /// The compositor went away: every watcher and waiter hears it, then the connection ends.
  private func connectionLost() {
    state.lost = true
    state.lostHandlers.forEach { $0() }
    shutDown()
  }

  /// Destroys every object, disconnects, and fails the jobs still queued (on the Wayland
  /// thread, as its last act).
  private func shutDown() {
    state.lost = true
    state.finishWatchers()
    state.destroyAll()
    wl_display_disconnect(display)
    for job in takeJobs(ending: true) { job(self) }
  }

  /// Ends the thread: the selections this connection owns are given up.
  func close() {
    submit { connection in connection.state.closing = true }
  }
}
