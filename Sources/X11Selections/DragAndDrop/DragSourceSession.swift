/// The source's side of one XDND 5 drag, as a value: no Xlib, no clock.
///
/// The glue finds the `XdndAware` window under the pointer, feeds pointer moves, the
/// target's answers, the release, Escape and expired deadlines, and performs the actions
/// returned: send a message, release the grabs, start or cancel the one deadline, finish.
///
/// Rules it keeps (XDND, and the bugs other toolkits fixed):
/// - no new `XdndPosition` before the `XdndStatus` of the previous one; moves meanwhile are
///   coalesced into one pending position;
/// - answers from any window but the current target are ignored (session filter);
/// - a release before the target has answered waits ``statusAfterReleaseTimeout`` for the
///   answer, then gives up with `XdndLeave`;
/// - after `XdndDrop`, `XdndFinished` is awaited for ``finishedTimeout``;
/// - versions below 3 are not spoken to; the version used is the lower of 5 and the target's.
///
/// ```swift
/// var drag = DragSourceSession(source: utilityWindow, types: [uriList, utf8])
/// drag.moved(over: target, to: point)   // [.send(.enter(…)), .send(.position(…))]
/// drag.statusReceived(target: t, accept: true, …)
/// drag.released(at: time)              // [.releaseGrab, .send(.drop(…)), .startDeadline(finishedTimeout)]
/// drag.finishedReceived(target: t, success: true, action: .copy)   // [.cancelDeadline, .finish(.dropped(…))]
/// ```
struct DragSourceSession: Sendable, Equatable {
  /// How long to wait for the target's first answer after the button is released. GTK's
  /// targets answer in a few milliseconds; a second covers a loaded machine.
  static let statusAfterReleaseTimeout: Duration = .seconds(1)
  /// How long to wait for `XdndFinished` after the drop: the target converts the data first,
  /// which for a large file over INCR takes a while.
  static let finishedTimeout: Duration = .seconds(5)
  /// The highest version this source speaks.
  static let version = 5

  /// A window that takes drops, as found under the pointer.
  struct Target: Sendable, Equatable {
    /// The `XdndAware` top-level window: what messages are about (`xclient.window`).
    var window: XWindow
    /// Where messages go: the window itself, or its `XdndProxy`.
    var messageWindow: XWindow
    /// The version in its `XdndAware`.
    var version: Int
  }

  /// A pointer position to report.
  struct Position: Sendable, Equatable {
    var rootX: Int
    var rootY: Int
    var time: XTimestamp
    var action: DragAction
  }

  /// The target's last answer.
  struct Status: Sendable, Equatable {
    var accept: Bool
    var wantsPositionsInside: Bool
    var rectangle: XdndRectangle
    var action: DragAction?
  }

  /// A drag over one target.
  struct Over: Sendable, Equatable {
    var target: Target
    /// The version in use: min(5, the target's).
    var version: Int
    /// A position was sent and its status has not come.
    var awaitingStatus: Bool
    /// The latest move while a status was awaited, sent when it comes.
    var pending: Position?
    var status: Status?
    /// The action asked for in the last position sent.
    var lastAction: DragAction?
  }

  enum State: Sendable, Equatable {
    /// The pointer is over nothing that takes drops.
    case searching
    /// The pointer is over a target.
    case over(Over)
    /// Released before the target answered: waiting for its status.
    case releasedAwaitingStatus(Over, time: XTimestamp)
    /// Dropped: waiting for `XdndFinished`.
    case awaitingFinished(Over)
    /// Over.
    case ended(DragOutcome)
  }

  enum Action: Sendable, Equatable {
    /// Send `message` to `target.messageWindow`, about `target.window`.
    case send(XdndMessage, to: Target)
    /// Release the pointer and keyboard grabs.
    case releaseGrab
    /// Start the deadline (replacing any running one); call ``deadlinePassed()`` when it expires.
    case startDeadline(Duration)
    case cancelDeadline
    /// The drag is over: clean up and report.
    case finish(DragOutcome)
  }

  /// The window named as the source in every message: it owns `XdndSelection` and holds
  /// `XdndTypeList`.
  let source: XWindow
  /// The offered types, in order.
  let types: [XAtom]
  private(set) var state = State.searching

  init(source: XWindow, types: [XAtom]) {
    self.source = source
    self.types = types
  }

  var isOver: Bool {
    if case .ended = state { return true }
    return false
  }

  // MARK: Events

  /// The pointer moved to `position`, over `target` (`nil`: nothing that takes drops).
  mutating func moved(over target: Target?, to position: Position) -> [Action] {
    let target = target.flatMap { Self.versions.contains($0.version) ? $0 : nil }
    switch state {
    case .searching:
      guard let target else { return [] }
      return enter(target, at: position)
    case .over(var over):
      guard let target, target.window == over.target.window else {
        var actions: [Action] = [.send(.leave(source: source), to: over.target)]
        state = .searching
        if let target { actions += enter(target, at: position) }
        return actions
      }
      if over.awaitingStatus {
        over.pending = position
        state = .over(over)
        return []
      }
      if let status = over.status, !status.wantsPositionsInside,
        status.rectangle.contains(x: position.rootX, y: position.rootY),
        over.lastAction == position.action
      {
        return []  // the target needs no news inside this rectangle, unless the action changes
      }
      return send(position, over: &over)
    case .releasedAwaitingStatus, .awaitingFinished, .ended:
      return []
    }
  }

  /// `XdndStatus` from `target`.
  mutating func statusReceived(
    target window: XWindow, accept: Bool, wantsPositionsInside: Bool, rectangle: XdndRectangle,
    action: DragAction?
  ) -> [Action] {
    let status = Status(
      accept: accept, wantsPositionsInside: wantsPositionsInside, rectangle: rectangle,
      action: action)
    switch state {
    case .over(var over) where Self.isFrom(window, over.target):
      over.awaitingStatus = false
      over.status = status
      guard let pending = over.pending else {
        state = .over(over)
        return []
      }
      over.pending = nil
      return send(pending, over: &over)
    case .releasedAwaitingStatus(var over, let time) where Self.isFrom(window, over.target):
      over.awaitingStatus = false
      over.status = status
      return decide(over, time: time)
    default:
      return []  // not the current target's, or too late
    }
  }

  /// The button was released at `time`.
  mutating func released(at time: XTimestamp) -> [Action] {
    switch state {
    case .searching:
      state = .ended(.noTarget)
      return [.releaseGrab, .finish(.noTarget)]
    case .over(let over):
      if over.awaitingStatus || over.status == nil {
        state = .releasedAwaitingStatus(over, time: time)
        return [.releaseGrab, .startDeadline(Self.statusAfterReleaseTimeout)]
      }
      return [.releaseGrab] + decide(over, time: time)
    case .releasedAwaitingStatus, .awaitingFinished, .ended:
      return []
    }
  }

  /// `XdndFinished` from `target`.
  mutating func finishedReceived(target window: XWindow, success: Bool, action: DragAction?)
    -> [Action]
  {
    guard case .awaitingFinished(let over) = state, Self.isFrom(window, over.target) else {
      return []
    }
    // Before version 5, XdndFinished carries no result: the accepted action was performed.
    let performed = over.version >= 5 ? action : over.status?.action
    let succeeded = over.version >= 5 ? success : true
    let outcome: DragOutcome =
      succeeded
      ? .dropped(target: over.target.window, action: performed ?? .copy)
      : .failed(target: over.target.window)
    state = .ended(outcome)
    return [.cancelDeadline, .finish(outcome)]
  }

  /// Escape: cancel the drag.
  mutating func cancelled() -> [Action] {
    switch state {
    case .searching:
      state = .ended(.cancelled)
      return [.releaseGrab, .finish(.cancelled)]
    case .over(let over):
      state = .ended(.cancelled)
      return [.send(.leave(source: source), to: over.target), .releaseGrab, .finish(.cancelled)]
    case .releasedAwaitingStatus(let over, _):
      // The grab went with the release.
      state = .ended(.cancelled)
      return [.send(.leave(source: source), to: over.target), .cancelDeadline, .finish(.cancelled)]
    case .awaitingFinished, .ended:
      return []
    }
  }

  /// The deadline started last expired.
  mutating func deadlinePassed() -> [Action] {
    switch state {
    case .releasedAwaitingStatus(let over, _):
      let outcome = DragOutcome.targetDidNotAnswer(
        target: over.target.window, awaiting: "XdndStatus")
      state = .ended(outcome)
      return [.send(.leave(source: source), to: over.target), .finish(outcome)]
    case .awaitingFinished(let over):
      // After a drop the protocol has no leave: the target is simply given up on.
      let outcome = DragOutcome.targetDidNotAnswer(
        target: over.target.window, awaiting: "XdndFinished")
      state = .ended(outcome)
      return [.finish(outcome)]
    default:
      return []
    }
  }

  // MARK: Steps

  private static let versions = 3...Int.max

  private static func isFrom(_ window: XWindow, _ target: Target) -> Bool {
    window == target.window || window == target.messageWindow
  }

  private mutating func enter(_ target: Target, at position: Position) -> [Action] {
    let version = min(Self.version, target.version)
    var over = Over(
      target: target, version: version, awaitingStatus: false, pending: nil, status: nil,
      lastAction: nil)
    let enter = XdndMessage.enter(
      source: source, version: version, moreThanThreeTypes: types.count > 3,
      types: Array(types.prefix(3)))
    return [.send(enter, to: target)] + send(position, over: &over)
  }

  private mutating func send(_ position: Position, over: inout Over) -> [Action] {
    over.awaitingStatus = true
    over.lastAction = position.action
    state = .over(over)
    let message = XdndMessage.position(
      source: source, rootX: position.rootX, rootY: position.rootY, time: position.time,
      action: over.version >= 2 ? position.action : nil)
    return [.send(message, to: over.target)]
  }

  /// After the release, with the target's answer in: drop when it accepted, else leave.
  private mutating func decide(_ over: Over, time: XTimestamp) -> [Action] {
    guard over.status?.accept == true else {
      let outcome = DragOutcome.rejected(target: over.target.window)
      state = .ended(outcome)
      return [.cancelDeadline, .send(.leave(source: source), to: over.target), .finish(outcome)]
    }
    state = .awaitingFinished(over)
    return [
      .send(.drop(source: source, time: time), to: over.target),
      .startDeadline(Self.finishedTimeout),
    ]
  }
}
