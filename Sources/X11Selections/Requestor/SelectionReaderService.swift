import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The requestor side of the selection protocol: converts a selection and reads the reply,
/// following INCR, with a deadline for every step.
///
/// ICCCM §2.4 (requesting a conversion), §2.7.2 (INCR).
/// Each read uses its own property on the session's window, so reads run concurrently.
final class SelectionReaderService {
  final class Pending {
    let selection: XAtom
    let target: XAtom
    let property: XAtom
    let sink: SelectionSink
    let stepTimeout: Duration
    let byteLimit: Int?
    let once: Once<SelectionData>
    var timer: UUID?
    var awaitingNotify = true
    var receive: IncrementalReceive?
    var collected = Data()
    var byteCount = 0
    var type: XAtom = .none
    var format: Int32 = 8
    var failed = false

    init(
      selection: XAtom, target: XAtom, property: XAtom, sink: SelectionSink, stepTimeout: Duration,
      byteLimit: Int?, once: Once<SelectionData>
    ) {
      self.byteLimit = byteLimit
      self.selection = selection
      self.target = target
      self.property = property
      self.sink = sink
      self.stepTimeout = stepTimeout
      self.once = once
    }
  }

  unowned let session: X11Session
  private var pending: [XAtom: Pending] = [:]
  private var freeProperties: [XAtom] = []
  private var propertyCount = 0

  init(session: X11Session) {
    self.session = session
  }

  /// Asks the owner of `selection` for `target`.
  func start(
    selection: XAtom, target: XAtom, sink: SelectionSink, stepTimeout: Duration, byteLimit: Int? = nil,
    once: Once<SelectionData>
  ) {
    let connection = session.connection
    guard connection.selectionOwner(selection) != .none else {
      once.resume(throwing: X11Error.noOwner(connection.name(selection) ?? "selection"))
      return
    }
    let property = freeProperties.popLast() ?? {
      propertyCount += 1
      return connection.atom("FERRY_SELECTION_\(propertyCount)")
    }()
    connection.deleteProperty(of: session.window, property)
    let request = Pending(
      selection: selection, target: target, property: property, sink: sink, stepTimeout: stepTimeout,
      byteLimit: byteLimit, once: once)
    pending[property] = request
    connection.convertSelection(selection, target: target, property: property, requestor: session.window, time: session.serverTime())
    connection.flush()
    arm(request, step: "waiting for the owner of \(connection.name(selection) ?? "?") to answer \(connection.name(target) ?? "?")")
  }

  func handle(_ notify: X11Event.SelectionNotify) {
    let request: Pending?
    if notify.property != .none {
      request = pending[notify.property]
    } else {
      request = pending.values.first { $0.awaitingNotify && $0.selection == notify.selection && $0.target == notify.target }
    }
    guard let request, request.awaitingNotify else { return }
    request.awaitingNotify = false
    let connection = session.connection
    guard notify.property != .none else {
      fail(request, .refused(selection: connection.name(request.selection) ?? "?", target: connection.name(request.target) ?? "?"))
      return
    }
    guard let value = connection.property(of: session.window, request.property, delete: true) else {
      fail(request, .malformedReply("the owner announced data but the property is missing"))
      return
    }
    if value.type == connection.atoms.incr {
      // Deleting the announcement (done by the read above) starts the transfer.
      request.receive = IncrementalReceive()
      connection.flush()
      arm(request, step: "waiting for the next INCR chunk")
      return
    }
    request.type = value.type
    request.format = value.format
    if let limit = request.byteLimit, value.bytes.count > limit {
      fail(request, .tooLarge(limit: limit))
      return
    }
    append(value.bytes, to: request)
    complete(request, incremental: false)
  }

  func handleNewValue(_ property: XAtom) {
    guard let request = pending[property], request.receive != nil else { return }
    let connection = session.connection
    guard let value = connection.property(of: session.window, property, delete: true) else { return }
    switch request.receive!.chunk(type: value.type, byteCount: value.bytes.count) {
    case .append:
      if request.type == .none {
        request.type = value.type
        request.format = value.format
      }
      if let limit = request.byteLimit, request.byteCount + value.bytes.count > limit {
        // Stop here: the owner's transfer times out on its side, as a vanished requestor's does.
        fail(request, .tooLarge(limit: limit), recycle: false)
        return
      }
      append(value.bytes, to: request)
      connection.flush()
      arm(request, step: "waiting for the next INCR chunk")
    case .finish:
      complete(request, incremental: true)
    case .ignore:
      break
    }
  }

  private func append(_ bytes: Data, to request: Pending) {
    request.byteCount += bytes.count
    switch request.sink {
    case .memory:
      request.collected.append(bytes)
    case .fileDescriptor(let descriptor):
      guard !request.failed else { return }
      let ok = bytes.withUnsafeBytes { raw -> Bool in
        var offset = 0
        while offset < raw.count {
          let written = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
          if written < 0 {
            if errno == EINTR { continue }
            return false
          }
          offset += written
        }
        return true
      }
      if !ok { request.failed = true }
    }
  }

  private func complete(_ request: Pending, incremental: Bool) {
    finish(request)
    if request.failed {
      request.once.resume(throwing: X11Error.malformedReply("could not write the data: \(String(cString: strerror(errno)))"))
      return
    }
    let connection = session.connection
    request.once.resume(
      returning: SelectionData(
        target: connection.name(request.target) ?? "", type: connection.name(request.type) ?? "",
        format: Int(request.format), data: request.collected, byteCount: request.byteCount,
        wasIncremental: incremental))
  }

  private func fail(_ request: Pending, _ error: X11Error, recycle: Bool = true) {
    finish(request, recycle: recycle)
    request.once.resume(throwing: error)
  }

  /// Forgets `request`. Its property is used again unless the owner may still answer into it
  /// (after a timeout), so a late reply can never land in another read.
  private func finish(_ request: Pending, recycle: Bool = true) {
    session.cancelTimer(request.timer)
    pending[request.property] = nil
    session.connection.deleteProperty(of: session.window, request.property)
    if recycle { freeProperties.append(request.property) }
  }

  /// Restarts the deadline of `request`'s current step.
  private func arm(_ request: Pending, step: String) {
    session.cancelTimer(request.timer)
    request.timer = session.schedule(after: request.stepTimeout) { session in
      session.reader.fail(request, .timedOut(step), recycle: false)
    }
  }

  func failAll(with error: X11Error) {
    for request in pending.values { request.once.resume(throwing: error) }
    pending.removeAll()
  }
}
