import FerrySystem
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The requestor side of the selection protocol: converts a selection and reads the reply,
/// following INCR, with a deadline for every step. The decisions are ``SelectionRead``'s;
/// this service carries them out with Xlib.
///
/// ICCCM §2.4 (requesting a conversion), §2.7.2 (INCR).
/// Each read uses its own property on the session's window, so reads run concurrently.
final class SelectionReaderService {
  /// How long a transfer whose caller was already answered (a step timed out) is still
  /// drained: past this without a chunk, the owner has given up too.
  static let orphanGrace: Duration = .seconds(60)

  /// Who hears how a read ended: the caller that asked for it, or the `MULTIPLE` request
  /// it is a member of.
  enum Completion {
    case caller(Once<SelectionData>)
    case member(PendingMultiple, index: Int)
  }

  final class Pending {
    let selection: XAtom
    /// Who was asked.
    var owner: SelectionOwnership?
    let target: XAtom
    let property: XAtom
    let sink: SelectionSink
    let stepTimeout: Duration
    let completion: Completion
    var read: SelectionRead
    var timer: UUID?
    var collected = Data()
    var writeFailure: Errno?

    init(
      selection: XAtom, target: XAtom, property: XAtom, sink: SelectionSink, stepTimeout: Duration,
      read: SelectionRead, completion: Completion
    ) {
      self.selection = selection
      self.target = target
      self.property = property
      self.sink = sink
      self.stepTimeout = stepTimeout
      self.read = read
      self.completion = completion
    }
  }

  unowned let session: X11Session
  var pending: [XAtom: Pending] = [:]
  /// `MULTIPLE` requests in flight, oldest first.
  var multiples: [PendingMultiple] = []
  var freeProperties: [XAtom] = []
  private var propertyCount = 0
  /// How many conversions this service has asked owners for (for tests: one `MULTIPLE`
  /// request is one).
  private(set) var conversionCount = 0

  init(session: X11Session) {
    self.session = session
  }

  var connection: X11Connection { session.connection }

  /// Asks the owner of `selection` for `target`.
  ///
  /// - Parameters:
  ///   - budget: The most bytes kept; a larger reply is not read, or drained, and fails with
  ///     ``X11Error/tooLarge(limit:)``.
  ///   - expectedOwner: The only owner to ask, with the time of its ownership for the
  ///     request; when another owns the selection, the read fails with
  ///     ``X11Error/ownerChanged(_:)`` and asks nothing.
  func start(
    selection: XAtom, target: XAtom, sink: SelectionSink, stepTimeout: Duration, budget: Int? = nil,
    expectedOwner: SelectionOwnership? = nil, once: Once<SelectionData>
  ) {
    // The time and the property first: their round trips must not come between the look at
    // the owner and the request, or another owner taking the selection meanwhile would get it.
    let time = requestTime(for: expectedOwner)
    let property = allocateProperty()
    guard let owner = checkOwner(of: selection, expected: expectedOwner, once: once) else {
      freeProperties.append(property)
      return
    }
    connection.deleteProperty(of: session.window, property)
    let request = Pending(
      selection: selection, target: target, property: property, sink: sink,
      stepTimeout: stepTimeout,
      read: SelectionRead(target: connection.name(target) ?? "?", budget: budget),
      completion: .caller(once))
    request.owner = owner
    pending[property] = request
    convert(selection, to: target, into: property, time: time)
    arm(
      request,
      step:
        "waiting for the owner of \(connection.name(selection) ?? "?") to answer \(request.read.target)"
    )
  }

  /// A property of the session's window for one reply: one used before and left clean, or a
  /// new one.
  func allocateProperty() -> XAtom {
    freeProperties.popLast()
      ?? {
        propertyCount += 1
        return connection.atom("FERRY_SELECTION_\(propertyCount)")
      }()
  }

  /// The time a request to `owner` carries: when it took the selection, if known (an owner
  /// that took it later refuses the request), else the server's time now.
  func requestTime(for owner: SelectionOwnership?) -> XTimestamp {
    if let since = owner?.since, since != .current { return since }
    return session.serverTime()
  }

  /// The owner of `selection`, when it has one and it is `expected`'s window (any, for
  /// `nil`); else fails `once` and returns `nil`.
  func checkOwner<Value>(
    of selection: XAtom, expected: SelectionOwnership?, once: Once<Value>
  ) -> SelectionOwnership? {
    let window = connection.selectionOwner(selection)
    let name = connection.selection(named: selection) ?? "selection"
    if window == .none {
      once.resume(throwing: X11Error.noOwner(name))
      return nil
    }
    if let expected, window != expected.window {
      once.resume(throwing: X11Error.ownerChanged(name))
      return nil
    }
    return session.ownership(of: selection, by: window)
  }

  /// Asks the owner of `selection` to convert it to `target` into `property`, at `time`.
  func convert(_ selection: XAtom, to target: XAtom, into property: XAtom, time: XTimestamp) {
    conversionCount += 1
    connection.convertSelection(
      selection, target: target, property: property, requestor: session.window, time: time)
    connection.flush()
  }

  func handle(_ notify: X11Event.SelectionNotify) {
    if handleMultiple(notify) { return }
    let request: Pending?
    if notify.property != .none {
      request = pending[notify.property]
    } else {
      request = pending.values.first {
        $0.read.state == .awaitingReply && $0.selection == notify.selection
          && $0.target == notify.target
      }
    }
    guard let request, request.read.state == .awaitingReply else { return }
    guard notify.property != .none else {
      perform(
        request.read.replied(nil, selection: connection.selection(named: request.selection) ?? "?"),
        for: request)
      return
    }
    readReply(of: request)
  }

  /// Reads the owner's answer in `request`'s property: its shape first, so that a reply
  /// past the budget is never read.
  func readReply(of request: Pending) {
    let shape = connection.propertyShape(of: session.window, request.property).map {
      SelectionRead.PropertyShape(
        type: connection.name($0.type) ?? "", format: Int($0.format), byteCount: $0.byteCount)
    }
    let selection = connection.selection(named: request.selection) ?? "?"
    perform(request.read.replied(shape, selection: selection, missing: shape == nil), for: request)
  }

  func handleNewValue(_ property: XAtom) {
    guard let request = pending[property], request.read.expectsChunks,
      let value = connection.property(of: session.window, property, delete: true)
    else { return }
    let action = request.read.chunk(
      type: connection.name(value.type) ?? "", format: Int(value.format),
      byteCount: value.bytes.count)
    if action == .keepChunk { append(value.bytes, to: request) }
    perform(action, for: request)
  }

  private func perform(_ action: SelectionRead.Action, for request: Pending) {
    switch action {
    case .fail(let error):
      // An owner that did not answer in time may still answer into this property later.
      finish(request, recycle: { if case .timedOut = error { false } else { true } }())
      resolve(request, .failure(error))
    case .discardWhole(let error):
      connection.deleteProperty(of: session.window, request.property)
      fail(request, error)
    case .readWhole:
      guard let value = connection.property(of: session.window, request.property, delete: true)
      else {
        fail(request, .malformedReply("the owner's reply property went away before it was read"))
        return
      }
      append(value.bytes, to: request)
      complete(request, incremental: false)
    case .readAnnouncement:
      // Reading with delete starts the transfer (ICCCM §2.7.2).
      let announcement = connection.property(of: session.window, request.property, delete: true)
      let size = announcement.flatMap { $0.values.first }.map { Int(truncatingIfNeeded: $0) }
      perform(request.read.announced(size: size), for: request)
    case .startIncremental, .keepChunk:
      connection.flush()
      arm(request, step: "waiting for the next INCR chunk")
    case .discardChunk:
      request.collected = Data()
      connection.flush()
      switch request.read.state {
      case .orphaned, .finished: armOrphan(request)
      default: arm(request, step: "waiting for the next INCR chunk")
      }
    case .deliver:
      complete(request, incremental: true)
    case .deliverFailure(let error):
      fail(request, error)
    case .failAndDrain(let error):
      request.collected = Data()
      armOrphan(request)
      resolve(request, .failure(error))
    case .ignore:
      break
    }
  }

  private func append(_ bytes: Data, to request: Pending) {
    switch request.sink {
    case .memory:
      request.collected.append(bytes)
    case .fileDescriptor(let descriptor):
      guard request.writeFailure == nil else { return }
      do {
        try bytes.withUnsafeBytes { try FileDescriptor(rawValue: descriptor).writeAll(from: $0) }
      } catch {
        request.writeFailure = error as? Errno ?? .ioError
      }
    }
  }

  private func complete(_ request: Pending, incremental: Bool) {
    finish(request)
    if let failure = request.writeFailure {
      resolve(request, .failure(.malformedReply("could not write the data: \(failure)")))
      return
    }
    let data = SelectionData(
      target: request.read.target, type: request.read.dataType ?? "",
      format: request.read.dataFormat ?? 8, data: request.collected,
      byteCount: request.read.keptBytes,
      wasIncremental: incremental, owner: request.owner)
    request.collected = Data()
    resolve(request, .success(data))
  }

  private func fail(_ request: Pending, _ error: X11Error) {
    finish(request)
    resolve(request, .failure(error))
  }

  /// Tells whoever waits for `request` how it ended.
  private func resolve(_ request: Pending, _ result: Result<SelectionData, X11Error>) {
    switch request.completion {
    case .caller(let once): once.resume(with: result.mapError { $0 as any Error })
    case .member(let multiple, let index): memberRead(multiple, index, result)
    }
  }

  /// Forgets `request`; its property is used again. Only a finished read gets here, so no
  /// late answer from its owner can land in another read's property — a read that timed
  /// out is drained as an orphan first.
  private func finish(_ request: Pending, recycle: Bool = true) {
    session.cancelTimer(request.timer)
    pending[request.property] = nil
    connection.deleteProperty(of: session.window, request.property)
    if recycle { freeProperties.append(request.property) }
  }

  /// Restarts the deadline of `request`'s current step.
  private func arm(_ request: Pending, step: String) {
    session.cancelTimer(request.timer)
    request.timer = session.schedule(after: request.stepTimeout) { session in
      session.reader.perform(request.read.stepTimedOut(step), for: request)
    }
  }

  /// Keeps an orphaned transfer's property until its owner finishes or gives up. The
  /// property is never used again: a late chunk must not land in a new read.
  private func armOrphan(_ request: Pending) {
    session.cancelTimer(request.timer)
    if request.read.state == .finished {
      finish(request)
      return
    }
    request.timer = session.schedule(after: Self.orphanGrace) { session in
      _ = request.read.stepTimedOut("")
      session.reader.pending[request.property] = nil
    }
  }

  /// Reads in flight, orphans included (for tests).
  var pendingCount: Int { pending.count }

  func failAll(with error: X11Error) {
    let requests = pending.values
    let batches = multiples
    pending.removeAll()
    multiples.removeAll()
    for batch in batches { batch.once.resume(throwing: error) }
    for request in requests {
      if case .caller(let once) = request.completion { once.resume(throwing: error) }
    }
  }
}
