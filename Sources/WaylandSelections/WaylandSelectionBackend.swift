import FerrySystem
import FoundationEssentials
import Pasteboard
import SelectionBackendCore
import UniformTypeIdentifiers

/// The Wayland implementation of `SelectionBackend`: the clipboard and the primary selection
/// of one compositor, through its data-control protocol (`ext-data-control-v1`, or
/// `zwlr_data_control_manager_v1` on wlroots compositors such as sway).
///
/// Data-control lets a client that has no window and no focus read and set the selections —
/// what a clipboard manager needs. Targets are MIME types; an owner token counts selection
/// events (Wayland does not say who owns a selection). Ferry's own offers carry a private
/// MIME type, so its own selections are told from other programs'. There is no
/// clipboard-manager hand-over: a manager copies every change as it happens instead.
///
/// ```swift
/// let backend = try WaylandSelectionBackend(socket: nil)   // $WAYLAND_DISPLAY
/// try await backend.own(.clipboard, item: item)
/// ```
public final class WaylandSelectionBackend: SelectionBackend {
  /// The connection and the watchers of its owner changes (``WaylandLink``).
  private let link: WaylandLink

  /// The connection now.
  var connection: WaylandConnection { link.connection }

  /// Connects to the compositor at `socket` (a name in `$XDG_RUNTIME_DIR` or a path; `nil`:
  /// `$WAYLAND_DISPLAY`).
  ///
  /// - Parameter servingStepTimeout: How long a reader of Ferry's copies may take for each
  ///   chunk before its transfer is dropped.
  /// - Throws: `BackendError.cannotConnect(_:)`, with one line naming what is missing, also
  ///   when the compositor has no data-control protocol.
  public init(socket: String?, servingStepTimeout: Duration = .seconds(5)) throws(BackendError) {
    let first = try WaylandConnection(socket: socket, servingStepTimeout: servingStepTimeout)
    link = WaylandLink(first)
  }

  /// Speaks to the compositor on `socket`, a stream socket already connected to it — a test's
  /// socket pair, whose other end plays the compositor. The backend owns the socket.
  ///
  /// - Throws: `BackendError.cannotConnect(_:)`, as ``init(socket:servingStepTimeout:)``.
  /// `setupTimeout` bounds each round trip of the setup: a test on a loaded machine gives its
  /// fake compositor longer than a real one gets.
  package init(
    connectedTo socket: FileDescriptor, servingStepTimeout: Duration = .seconds(5),
    setupTimeout: Duration = .seconds(10)
  ) throws(BackendError) {
    let first = try WaylandConnection(
      connectedTo: socket, servingStepTimeout: servingStepTimeout, setupTimeout: setupTimeout)
    link = WaylandLink(first)
  }

  /// The data-control protocol bound: `ext-data-control-v1`, or `zwlr_data_control_manager_v1`
  /// and its version.
  public var protocolName: String {
    get async {
      (try? await connection.perform { connection in
        connection.state.isExt
          ? "ext-data-control-v1"
          : "zwlr_data_control_manager_v1 v\(connection.state.managerVersion)"
      }) ?? "none (the connection was lost)"
    }
  }

  public var roles: Set<SelectionRole> { [.clipboard, .primary] }

  public func own(
    _ role: SelectionRole, item: PasteboardItem, onlyIfUnowned: Bool,
    onLost: @escaping @Sendable () -> Void
  ) async throws(BackendError) {
    try Self.check(role)
    try await connection.perform { connection throws(BackendError) in
      let (state, wire) = (connection.state, connection.wire)
      if role == .primary, !state.hasPrimary { throw .unsupported(role) }
      if onlyIfUnowned, let offer = state.current[role],
        !(state.offers[offer]?.contains(state.marker) ?? false)
      {
        throw .ownershipRefused(role)
      }
      guard let manager = state.manager, let device = state.device else { throw .connectionLost }
      let source = wire.newID()
      state.objects[source] = .source
      wire.send(manager, DataControlManagerRequest.createDataSource, [.newID(source)])
      let table = WaylandOfferTable(item: item, marker: state.marker)
      for entry in table.entries {
        wire.send(source, DataControlSourceRequest.offer, [.string(entry.name)])
      }
      state.sources[source] = WaylandState.OwnSource(
        role: role, item: item, table: table, onLost: onLost)
      state.ownSource[role] = source
      wire.send(device, DataControlDeviceRequest.setting(role), [.object(source)])
    }
    // Owned once the compositor says so: its selection event for the source comes first.
    await connection.sync()
  }

  public func disown(_ role: SelectionRole) async {
    _ = try? await connection.perform { connection throws(BackendError) in
      let state = connection.state
      guard state.ownSource[role] != nil, let device = state.device else { return }
      state.ownSource[role] = nil
      state.clearing.insert(role)
      connection.wire.send(device, DataControlDeviceRequest.setting(role), [.object(0)])
    }
    await connection.sync()
  }

  public func owner(of role: SelectionRole) async throws(BackendError) -> OwnerToken? {
    try Self.check(role)
    return try await connection.perform { $0.state.tokens[role] }
  }

  public func ownerChanges(of roles: [SelectionRole]) -> AsyncStream<OwnerChange> {
    let (stream, continuation) = AsyncStream<OwnerChange>.makeStream()
    let id = UInt64.random(in: 1...UInt64.max)
    link.addWatcher(id, roles: Set(roles), continuation: continuation)
    continuation.onTermination = { [weak link] _ in link?.removeWatcher(id) }
    return stream
  }

  public func offer(of role: SelectionRole, stepTimeout: Duration) async throws(BackendError)
    -> OwnerOffer
  {
    try Self.check(role)
    let (types, owner) = try await connection.perform {
      connection throws(BackendError) -> ([String], OwnerToken?) in
      let state = connection.state
      guard let offer = state.current[role], let types = state.offers[offer] else {
        throw .noOwner(role)
      }
      return (types, state.tokens[role])
    }
    return WaylandOffer.make(role: role, types: types, owner: owner)
  }

  public func capture(
    _ offer: OwnerOffer, targets: [OwnerOffer.Target], budget: Int, stepTimeout: Duration
  ) async -> OfferCapture {
    let owner = offer.owner
    return await OfferCapture.targetByTarget(offer, targets: targets, budget: budget) {
      (role, target, limit) async throws(BackendError) -> Data in
      try await self.read(
        role, target: target, stepTimeout: stepTimeout, limit: limit, expectedOwner: owner)
    }
  }

  public func item(_ capture: OfferCapture, readingTheRestWithin stepTimeout: Duration)
    -> PasteboardItem
  {
    let owner = capture.offer.owner
    return capture.item(
      readingTheRestWith: { (role, target, limit) async throws(BackendError) -> Data in
        try await self.read(
          role, target: target, stepTimeout: stepTimeout, limit: limit, expectedOwner: owner)
      },
      streamingWith: { (role, target, descriptor) async throws(BackendError) in
        try await self.read(
          role, target: target, into: descriptor, stepTimeout: stepTimeout, expectedOwner: owner)
      }, stepTimeout: stepTimeout)
  }

  public func read(
    _ role: SelectionRole, target: String, into descriptor: Int32, stepTimeout: Duration
  ) async throws(BackendError) {
    try await read(
      role, target: target, into: descriptor, stepTimeout: stepTimeout, expectedOwner: nil)
  }

  /// Streams `target` of the current offer of `role` to `descriptor`; with `expectedOwner`,
  /// only while that ownership lasts.
  private func read(
    _ role: SelectionRole, target: String, into descriptor: Int32, stepTimeout: Duration,
    expectedOwner: OwnerToken?
  ) async throws(BackendError) {
    let input = try await receive(role, target: target, expectedOwner: expectedOwner)
    let copied = try? await DetachedThread.run(name: "ferry-wl-read") {
      () -> Result<Void, BackendError> in
      Result { () throws(BackendError) in
        try PipeTransfer.copy(
          input, to: FileDescriptor(rawValue: descriptor), stepTimeout: stepTimeout,
          what: "the owner of \(role) to send \(target)")
      }
    }
    guard let copied else { throw .failed("cannot start a thread to read \(target)") }
    try copied.get()
  }

  /// Asks the current owner of `role` for `target` (`receive` on the Wayland thread) and
  /// returns the pipe's reading end.
  ///
  /// - Parameter expectedOwner: The ownership the read is meant for (a capture's offer's):
  ///   another owner is asked nothing (``BackendError/ownerChanged(_:)``), as its data would
  ///   be taken for the first owner's.
  private func receive(_ role: SelectionRole, target: String, expectedOwner: OwnerToken?)
    async throws(BackendError) -> FileDescriptor
  {
    try Self.check(role)
    return try await connection.perform { connection throws(BackendError) -> FileDescriptor in
      let state = connection.state
      guard let offer = state.current[role], let types = state.offers[offer] else {
        throw .noOwner(role)
      }
      if let expectedOwner, state.tokens[role] != expectedOwner { throw .ownerChanged(role) }
      guard types.contains(target) else { throw .refused(role, target: target) }
      let pipe = try PipeTransfer.makePipe()
      connection.wire.send(
        offer, DataControlOfferRequest.receive, [.string(target), .descriptor(pipe.write.rawValue)])
      let flushed = Result { () throws(BackendError) in try connection.wire.flush() }
      try? pipe.write.close()  // the kernel holds the sent copy
      try flushed.get()
      return pipe.read
    }
  }

  /// Reads `target` of the current offer of `role`: `receive` into a pipe on the Wayland
  /// thread, then the pipe to its end on a thread of its own, which stops at once when the
  /// calling task is cancelled (the capture was superseded, or ran out of time).
  func read(
    _ role: SelectionRole, target: String, stepTimeout: Duration, limit: Int,
    expectedOwner: OwnerToken? = nil
  ) async throws(BackendError) -> Data {
    let input = try await receive(role, target: target, expectedOwner: expectedOwner)
    return try await TransferStop.run(name: "ferry-wl-read") { stop in
      Result { () throws(BackendError) in
        try PipeTransfer.readAll(
          input, stepTimeout: stepTimeout, limit: limit,
          what: "the owner of \(role) to send \(target)", stop: stop)
      }
    }
  }

  /// Why the connection to the compositor ended — its error, an event that broke the
  /// protocol, the socket's end — or `nil` while it lasts.
  public var connectionFailure: String? { link.failure }

  public func application(owning owner: OwnerToken) async -> String? { nil }

  public var clipboardManager: (any ClipboardManagerHandOver)? { nil }

  public func onConnectionLost(_ handler: @escaping @Sendable () -> Void) {
    link.onLost(handler)
  }

  public func close() {
    link.close()
  }

  private static func check(_ role: SelectionRole) throws(BackendError) {
    guard role == .clipboard || role == .primary else { throw .unsupported(role) }
  }
}

extension DataControlDeviceRequest {
  /// The request that sets `role`'s selection: `set_primary_selection` for the primary
  /// selection, `set_selection` for the clipboard.
  static func setting(_ role: SelectionRole) -> Self {
    role == .primary ? .setPrimarySelection : .setSelection
  }
}
