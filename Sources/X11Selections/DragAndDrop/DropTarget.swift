import FerrySystem
import FoundationEssentials
import Pasteboard
import SelectionBackendCore
import UniformTypeIdentifiers

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// What makes a window take XDND 5 drops: the Xlib side of ``DropTargetSession``. Lives on
/// the X thread; reports each ``DropEvent`` to the window's owner.
///
/// On a drop it converts every offered type it can keep, in the source's order, with the
/// session's reader (INCR and deadlines included), makes a ``PasteboardItem`` of what came,
/// writes it to the pasteboard it was given, and then sends `XdndFinished`.
///
/// `package` for the drop window of `DragWindows`, which passes it its window's events.
package final class DropTarget {
  /// How long the source may take for each step of each conversion.
  static let conversionStepTimeout: Duration = .seconds(5)
  /// The most one dropped type may hold in memory.
  static let byteLimit = 256 << 20

  unowned let session: X11Session
  /// The window that takes the drops.
  let window: XWindow
  private let size: () -> (width: Int, height: Int)
  private var machine: DropTargetSession
  private let vocabulary: XdndVocabulary
  private let report: (DropEvent) -> Void
  private let pasteboard: Pasteboard?

  /// Makes `window` take drops: sets its `XdndAware`. Its owner passes it the window's
  /// events with ``handle(_:)``.
  ///
  /// - Parameters:
  ///   - window: A top-level window of this connection.
  ///   - size: The window's size now: a drag inside it is accepted.
  ///   - pasteboard: Where drops go; `nil` for nowhere.
  ///   - report: Called on the X thread with each event (``DropEvent/closed`` aside: the
  ///     window's owner knows when it closes).
  package init(
    session: X11Session, window: XWindow, size: @escaping () -> (width: Int, height: Int),
    pasteboard: Pasteboard?, report: @escaping (DropEvent) -> Void
  ) {
    self.session = session
    self.window = window
    self.size = size
    self.pasteboard = pasteboard
    self.report = report
    let atoms = session.connection.atoms
    vocabulary = XdndVocabulary(atoms)
    let ignored = session.connection.atoms(
      Array(OwnerOffer.metaTargets) + ["XdndDirectSave0", "application/x-rootwindow-drop"])
    machine = DropTargetSession(ignoredTypes: Set(ignored))
    // XdndAware holds the version as a number, though its type is ATOM.
    session.connection.setProperty(of: window, atoms[.xdndAware], type: .atom, values: [UInt(5)])
  }

  // MARK: Events

  /// Handles `event` when it is an XDND message to the window.
  ///
  /// - Returns: Whether it was.
  package func handle(_ event: X11Event) -> Bool {
    guard case .clientMessage(let message) = event, message.window == window,
      let decoded = XdndMessage(type: message.type, data: message.data, vocabulary: vocabulary)
    else { return false }
    switch decoded {
    case .enter(let source, let version, let more, let types):
      perform(
        machine.enter(source: source, version: version, moreThanThreeTypes: more, types: types))
      if case .offered(let offer, _, _) = machine.state, offer.source == source {
        let names = session.connection.names(offer.types).compactMap { $0 }
        report(.entered(source: source, types: names))
      }
    case .position(let source, let rootX, let rootY, _, let action):
      let local = session.connection.translate(
        x: rootX, y: rootY, from: session.connection.root, to: window)
      let (width, height) = size()
      let inside = local.map { $0.x >= 0 && $0.y >= 0 && $0.x < width && $0.y < height } ?? false
      perform(machine.position(source: source, inside: inside, requested: action))
    case .leave(let source):
      let wasOffered: Bool
      if case .offered(let offer, _, _) = machine.state {
        wasOffered = offer.source == source
      } else {
        wasOffered = false
      }
      perform(machine.leave(source: source))
      if wasOffered { report(.left(source: source)) }
    case .drop(let source, let time):
      perform(machine.drop(source: source, time: time))
    case .status, .finished:
      return false  // a source's business
    }
    return true
  }

  private func perform(_ actions: [DropTargetSession.Action]) {
    let connection = session.connection
    for action in actions {
      switch action {
      case .readTypeList(let source):
        let list = connection.property(of: source, connection.atoms[.xdndTypeList], delete: false)
        _ = connection.takeErrors()  // a source that vanished has no list
        machine.typeListRead((list?.values ?? []).map { XAtom(rawValue: $0) }, from: source)
      case .sendStatus(let source, let accept, let action):
        // The rectangle is the whole window: no need for news while the pointer stays inside.
        let origin = connection.translate(x: 0, y: 0, from: window, to: connection.root)
        let (width, height) = size()
        let rectangle =
          accept
          ? XdndRectangle(x: origin?.x ?? 0, y: origin?.y ?? 0, width: width, height: height)
          : .empty
        send(
          .status(
            target: window, accept: accept, wantsPositionsInside: false, rectangle: rectangle,
            action: action), to: source)
      case .convert(let source, let types, let time, let action):
        convert(types, from: source, time: time, action: action)
      case .sendFinished(let source, let success, let action):
        send(.finished(target: window, success: success, action: action), to: source)
      }
    }
    connection.flush()
  }

  private func send(_ message: XdndMessage, to window: XWindow) {
    let (type, data) = message.encoded(vocabulary)
    session.connection.sendClientMessage(to: window, type: type, data: data)
  }

  // MARK: Drops

  /// Reads `types` one after the other in a task, then finishes on the X thread.
  private func convert(_ types: [XAtom], from source: XWindow, time: XTimestamp, action: DragAction)
  {
    let connection = session.connection
    let wanted = Set(connection.names(types).compactMap { $0 })
    let offered = connection.names(offeredTypes).compactMap { $0 }
    let offer = OwnerOffer(selection: .xdnd, advertised: offered)
    // Every wanted target is read, two of one type too: a drop reports what each carried.
    let targets = offered.filter(wanted.contains).compactMap { name in
      UTType(tag: name, tagClass: .x11Target, conformingTo: nil).map {
        OwnerOffer.Target(name: name, type: $0)
      }
    }
    let loop = session.loop
    let finish = XThreadBound { (outcome: ReadOutcome) in
      self.finishDrop(outcome, offered: offered, source: source, time: time, action: action)
    }
    Task(executorPreference: ProductionExecutor.shared) {
      let capture = await loop.capture(
        offer, targets: targets, budget: DropTarget.byteLimit,
        stepTimeout: DropTarget.conversionStepTimeout)
      let outcome = ReadOutcome(
        received: capture.captured.map {
          Drop.Received(target: $0.target.name, type: $0.target.type, data: $0.data!)
        },
        failure: capture.entries.lazy.compactMap(\.failure).first.map { "\($0)" })
      loop.submit { _ in finish.value(outcome) }
    }
  }

  /// What the conversions of a drop gave.
  struct ReadOutcome: Sendable {
    var received: [Drop.Received]
    /// The first error, if any.
    var failure: String?
  }

  private var offeredTypes: [XAtom] {
    switch machine.state {
    case .idle: []
    case .offered(let offer, _, _), .converting(let offer, _, _): offer.types
    }
  }

  private func finishDrop(
    _ outcome: ReadOutcome, offered: [String], source: XWindow, time: XTimestamp, action: DragAction
  ) {
    let received = outcome.received
    perform(machine.conversionsFinished(success: !received.isEmpty))
    guard !received.isEmpty else {
      report(
        .failed(source: source, reason: outcome.failure ?? "the source offered nothing readable"))
      return
    }
    var seen = Set<UTType>()
    let representations = received.filter { seen.insert($0.type).inserted }.map {
      PasteboardRepresentation.data($0.data, type: $0.type)
    }
    let item = PasteboardItem(representations: representations)
    _ = pasteboard?.write([item])
    let drop = Drop(
      source: source, offered: offered, received: received, action: action, time: time, item: item)
    report(.dropped(drop))
  }
}
