import FerrySystem
import FoundationEssentials
import SelectionBackendCore

/// One connection to a Wayland compositor's data-control protocol, and the thread that is
/// the only one to touch it.
///
/// `ext-data-control-v1` is bound when the compositor offers it, `zwlr_data_control_manager_v1`
/// (version 2 at most, for PRIMARY) otherwise; both take the same path, as their requests and
/// events are the same, in the same order. The thread polls the socket and a wake-up pipe;
/// work from other threads reaches it as jobs (``perform(_:)``).
final class WaylandConnection: @unchecked Sendable {
  // Everything below is touched on the Wayland thread only, but for what `init` sets up
  // before the thread starts and the job queue, which has its own lock.
  let wire: WaylandWire
  let state: WaylandState
  /// How long a reader of Ferry's sources may take for each chunk.
  let servingStepTimeout: Duration
  /// Jobs for the thread, and what wakes it for them; the queue ends with the thread (jobs
  /// then run at once, and fail).
  private let jobs: ConnectionJobs<WaylandConnection>

  /// How long each round trip of the setup may take.
  private let setupDeadline: Duration

  /// Why the connection ended, once it has; read from any thread.
  private let ending = TrackedMutex<String?>(nil)

  /// Connects to `socket` (`nil`: `$WAYLAND_DISPLAY`), binds the seat and the data-control
  /// manager, reads the current selections, and starts the thread (unless `startsThread` is
  /// false: a one-shot read on the calling thread, ``WaylandTextPaste``).
  ///
  /// - Throws: ``BackendError/cannotConnect(_:)``, also when the compositor has no
  ///   data-control protocol (GNOME, weston).
  convenience init(
    socket: String?, servingStepTimeout: Duration = .seconds(5), startsThread: Bool = true
  ) throws(BackendError) {
    try self.init(
      wire: try WaylandWire(name: socket), servingStepTimeout: servingStepTimeout,
      startsThread: startsThread)
  }

  /// Speaks to the compositor on `socket`, a stream socket already connected to it (a test's
  /// socket pair, whose other end plays the compositor); otherwise as
  /// ``init(socket:servingStepTimeout:startsThread:)``. The connection owns the socket.
  ///
  /// - Throws: ``BackendError/cannotConnect(_:)``.
  ///
  /// `setupTimeout` bounds each round trip of the setup (10 s for a real compositor).
  convenience init(
    connectedTo socket: FileDescriptor, servingStepTimeout: Duration = .seconds(5),
    startsThread: Bool = true, setupTimeout: Duration = WaylandConnection.setupTimeout
  ) throws(BackendError) {
    try self.init(
      wire: WaylandWire(connectedTo: socket), servingStepTimeout: servingStepTimeout,
      startsThread: startsThread, setupTimeout: setupTimeout)
  }

  /// How long each round trip of the setup may take before the compositor is taken for one
  /// that does not answer.
  static let setupTimeout: Duration = .seconds(10)

  private init(
    wire: WaylandWire, servingStepTimeout: Duration, startsThread: Bool,
    setupTimeout: Duration = WaylandConnection.setupTimeout
  ) throws(BackendError) {
    self.setupDeadline = setupTimeout
    self.servingStepTimeout = servingStepTimeout
    self.wire = wire
    state = WaylandState(marker: FerryMarker.name)
    do {
      jobs = try ConnectionJobs()
    } catch {
      throw .failed("cannot make a pipe: \(error)")
    }
    try setUp()
    ProcessEnvironment.ignoreBrokenPipes()
    guard startsThread else { return }
    let started = DetachedThread.start(name: "ferry-wayland") { [self] in run() }
    guard started else { throw .failed("cannot start the Wayland thread") }
  }

  /// Why the connection ended — the compositor's error, an event that broke the protocol,
  /// the socket's end — or `nil` while it lasts (and after ``close()``).
  var failure: String? { ending.withLock { $0 } }

  /// Binds what the registry announces, then the data device, and waits for the current
  /// selections: all on the calling thread, before the Wayland thread exists.
  private func setUp() throws(BackendError) {
    let registry = wire.newID()
    state.objects[registry] = .registry
    state.registry = registry
    wire.send(WaylandWire.display, WaylandDisplayRequest.getRegistry, [.newID(registry)])
    try roundtrip()
    guard let seat = state.seat else { throw .cannotConnect("the Wayland compositor has no seat") }
    guard let manager = state.manager else {
      throw .cannotConnect(
        "the Wayland compositor offers no data-control protocol (ext-data-control-v1 or wlr-data-control; GNOME and weston have neither): X11 programs still work through XWayland and DISPLAY, and the broker's socket everywhere"
      )
    }
    let device = wire.newID()
    state.objects[device] = .device
    state.device = device
    wire.send(manager, DataControlManagerRequest.getDataDevice, [.newID(device), .object(seat)])
    try roundtrip()
  }

  /// `wl_display.sync`, read and dispatched until its `done`, on the calling thread (setup
  /// only).
  private func roundtrip() throws(BackendError) {
    let callback = wire.newID()
    state.objects[callback] = .setupCallback
    state.setupDone = false
    wire.send(WaylandWire.display, WaylandDisplayRequest.sync, [.newID(callback)])
    let deadline = ContinuousClock.now + setupDeadline
    while !state.setupDone {
      try wire.flush()
      var entries = [
        PollEntry(wire.socket, for: wire.hasOutput ? [.readable, .writable] : .readable)
      ]
      guard (try? Poll.wait(&entries, until: deadline)) ?? 0 > 0 else {
        throw .cannotConnect("the Wayland compositor did not answer in time")
      }
      guard try wire.receive() else {
        do throws(WaylandProtocolError) {
          try wire.endOfStream()
        } catch {
          throw .cannotConnect(error.description)
        }
        throw .cannotConnect("the Wayland compositor closed the connection as Ferry set up")
      }
      do throws(WaylandProtocolError) {
        try dispatchEvents()
      } catch {
        throw .cannotConnect(error.description)
      }
      if let error = state.protocolError {
        throw .cannotConnect("the Wayland compositor refused Ferry: \(error)")
      }
      if let failure = state.failure { throw .cannotConnect(failure) }
    }
  }

  /// Runs `body` on the Wayland thread and returns what it returns.
  func perform<T: Sendable>(
    _ body: @escaping @Sendable (WaylandConnection) throws(BackendError) -> T
  ) async throws(BackendError) -> T {
    let result: Result<T, BackendError> = await withCheckedContinuation { continuation in
      submit { connection in
        guard !connection.state.lost else {
          return continuation.resume(returning: .failure(.connectionLost))
        }
        continuation.resume(returning: Result { () throws(BackendError) in try body(connection) })
      }
    }
    return try result.get()
  }

  /// Waits until the compositor has handled every request sent so far, and this connection
  /// has handled the events it sent before answering (`wl_display.sync`).
  func sync() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      submit { connection in
        guard !connection.state.lost else { return continuation.resume() }
        let callback = connection.wire.newID()
        connection.state.objects[callback] = .syncCallback
        connection.state.syncWaiters[callback] = continuation
        connection.wire.send(WaylandWire.display, WaylandDisplayRequest.sync, [.newID(callback)])
      }
    }
  }

  /// Queues `job` for the Wayland thread.
  func submit(_ job: @escaping @Sendable (WaylandConnection) -> Void) {
    // Refused once the thread has ended: the state is no longer touched by it.
    if !jobs.submit(job) { job(self) }
  }

  /// The Wayland thread: reads and handles events, runs jobs, sends requests, until the
  /// connection ends.
  private func run() {
    while !state.closing && !state.lost {
      var entries = [
        PollEntry(wire.socket, for: wire.hasOutput ? [.readable, .writable] : .readable),
        PollEntry(jobs.readEnd, for: .readable),
      ]
      _ = try? Poll.wait(&entries, until: nil)
      if entries[0].isReady {
        readEvents()
        if state.lost { break }
      }
      if entries[1].isReady { jobs.drain() }
      for job in jobs.take() { job(self) }
      do {
        try wire.flush()
      } catch {
        lose("the Wayland compositor's socket failed as Ferry wrote to it")
      }
    }
    shutDown()
  }

  /// Reads what the socket holds and handles it; a fault ends the connection, saying why.
  private func readEvents() {
    do throws(WaylandProtocolError) {
      let open: Bool
      do {
        open = try wire.receive()
      } catch {
        return lose("the Wayland compositor's socket failed as Ferry read from it")
      }
      guard open else {
        try wire.endOfStream()
        return lose("the Wayland compositor closed the connection")
      }
      try dispatchEvents()
      if let error = state.protocolError {
        lose("the Wayland compositor ended the connection: \(error)")
      }
    } catch {
      lose(error.description)
    }
  }

  /// The connection is lost, for `reason` (the first reason given is kept): the lost
  /// handlers are told, once, and the thread ends.
  func lose(_ reason: String) {
    guard !state.lost else { return }
    state.failure = state.failure ?? reason
    ending.withLock { $0 = $0 ?? reason }
    state.lost = true
    let handlers = state.lostHandlers
    state.lostHandlers = []
    handlers.forEach { $0() }
  }

  /// Destroys Ferry's objects, ends every watcher, and fails the jobs still queued (on the
  /// Wayland thread, as its last act); the socket closes with the wire.
  ///
  /// Whatever the state holds of its callers goes too — the lost handlers, the sources with
  /// their items and `onLost`, the watchers — as a handler may hold the backend that holds
  /// this connection: kept, it would keep the connection, its state and its wire alive for
  /// ever (LeakSanitizer found them so at every daemon's exit).
  private func shutDown() {
    if !state.lost {
      state.destroyAll(on: wire)
      try? wire.flush()
    }
    state.lost = true
    state.lostHandlers = []
    state.sources = [:]
    state.ownSource = [:]
    state.dropWatchers()
    for waiter in state.syncWaiters.values { waiter.resume() }
    state.syncWaiters = [:]
    for job in jobs.take(ending: true) { job(self) }
    wire.close()
  }

  /// Ends the thread: the selections this connection owns are given up.
  func close() {
    submit { connection in connection.state.closing = true }
  }
}
