@testable import X11Selections

/// The atoms of the XDND vocabulary in these targets: small numbers, so that fuzzed atoms hit
/// them.
private let vocabulary = XdndVocabulary(
  enter: XAtom(rawValue: 1), position: XAtom(rawValue: 2), status: XAtom(rawValue: 3),
  leave: XAtom(rawValue: 4), drop: XAtom(rawValue: 5), finished: XAtom(rawValue: 6),
  copy: XAtom(rawValue: 7), move: XAtom(rawValue: 8), link: XAtom(rawValue: 9),
  ask: XAtom(rawValue: 10), privateAction: XAtom(rawValue: 11))

/// An XDND client message (`XdndMessage`) decoded from a fuzzed type and five longs: it
/// encodes to five longs in 32-bit range, and what it encodes to decodes back to what it
/// encoded, so a message passed on keeps its meaning.
let xdndMessageTarget = FuzzTarget(name: "xdnd-message") { bytes in
  var input = FuzzInput(bytes)
  let type = XAtom(rawValue: UInt(input.choice(8)))
  let data = (0..<input.choice(7)).map { _ in Int(Int32(truncatingIfNeeded: input.number(bytes: 4)))
  }
  guard let message = XdndMessage(type: type, data: data, vocabulary: vocabulary) else {
    require(!(1...6).contains(type.rawValue), "an XDND message type was not decoded")
    return
  }
  let encoded = message.encoded(vocabulary)
  require(encoded.data.count == 5, "\(encoded.data.count) longs")
  require(
    encoded.data.allSatisfy { Int(Int32(truncatingIfNeeded: $0)) == $0 },
    "a long out of 32-bit range")
  guard let decoded = XdndMessage(type: encoded.type, data: encoded.data, vocabulary: vocabulary)
  else {
    require(false, "\(message) encodes to a message that does not decode")
    return
  }
  require(
    decoded.encoded(vocabulary).data == encoded.data,
    "\(message) changes when passed on: \(decoded)")
}

/// The drop target's session (`DropTargetSession`) under fuzzed XDND messages from three
/// sources: every position gets exactly one status, only a drop is ever finished (once),
/// a status accepts only with something to convert, and a drop converts only wanted types.
let dropTargetTarget = FuzzTarget(name: "xdnd-target") { bytes in
  var input = FuzzInput(bytes)
  let ignored: Set<XAtom> = [XAtom(rawValue: 3)]
  var session = DropTargetSession(ignoredTypes: ignored)
  var dropsOwed: [XWindow: Int] = [:]
  func types() -> [XAtom] {
    (0..<input.choice(6)).map { _ in XAtom(rawValue: UInt(input.choice(6))) }
  }
  while !input.isAtEnd {
    let source = XWindow(rawValue: UInt(input.choice(3) + 100))
    let actions: [DropTargetSession.Action]
    var positioned = false
    switch input.choice(6) {
    case 0:
      actions = session.enter(
        source: source, version: input.choice(8), moreThanThreeTypes: input.bool(), types: types())
    case 1:
      session.typeListRead(types(), from: source)
      actions = []
    case 2:
      positioned = true
      actions = session.position(
        source: source, inside: input.bool(),
        requested: input.pick([nil, .copy, .move, .link, .ask]))
    case 3:
      actions = session.leave(source: source)
    case 4:
      dropsOwed[source, default: 0] += 1
      actions = session.drop(source: source, time: XTimestamp(rawValue: UInt(input.byte())))
    default:
      actions = session.conversionsFinished(success: input.bool())
    }
    let statuses = actions.filter { if case .sendStatus = $0 { true } else { false } }
    require(
      statuses.count == (positioned ? 1 : 0),
      "\(statuses.count) statuses for one \(positioned ? "position" : "non-position")")
    for action in actions {
      switch action {
      case .sendStatus(let to, let accept, let action):
        require(to == source, "a status to \(to) for a position from \(source)")
        if accept { require(!session.wantedTypes.isEmpty, "accepted with nothing to convert") }
        if !accept { require(action == nil, "a rejection with an action") }
      case .sendFinished(let to, _, _):
        require(dropsOwed[to, default: 0] > 0, "a finish to \(to), which dropped nothing")
        dropsOwed[to, default: 0] -= 1
      case .convert(_, let converted, _, _):
        require(
          !converted.contains(.none) && converted.allSatisfy { !ignored.contains($0) },
          "converting \(converted)")
        require(Set(converted).count == converted.count, "converting a type twice: \(converted)")
      case .readTypeList:
        break
      }
    }
  }
}

/// The drag source's session (`DragSourceSession`) under fuzzed pointer moves over three
/// targets, answers (from targets and strangers), releases, Escape and deadlines: no
/// position is sent before the status of the last one, a target is left before another is
/// entered, the grab is released and the drag finished at most once, nothing happens after
/// the finish, and every message names the source.
let dragSourceTarget = FuzzTarget(name: "xdnd-source") { bytes in
  var input = FuzzInput(bytes)
  let source = XWindow(rawValue: 50)
  // The second target has an XdndProxy; the third speaks a version too old to talk to.
  let targets = [
    DragSourceSession.Target(
      window: XWindow(rawValue: 200), messageWindow: XWindow(rawValue: 200), version: 5),
    DragSourceSession.Target(
      window: XWindow(rawValue: 201), messageWindow: XWindow(rawValue: 211), version: 3),
    DragSourceSession.Target(
      window: XWindow(rawValue: 202), messageWindow: XWindow(rawValue: 202), version: 2),
  ]
  var session = DragSourceSession(
    source: source, types: (0..<input.choice(6)).map { XAtom(rawValue: UInt($0 + 20)) })
  var entered: DragSourceSession.Target?
  var awaitingStatus = false
  var dropped = false
  var grabReleased = false
  var finished = false
  while !input.isAtEnd {
    let actions: [DragSourceSession.Action]
    switch input.choice(7) {
    case 0, 1:
      let over = input.choice(4) < 3 ? targets[input.choice(3)] : nil
      let position = DragSourceSession.Position(
        rootX: input.choice(40), rootY: input.choice(40),
        time: XTimestamp(rawValue: UInt(input.byte())),
        action: input.pick([.copy, .move, .link]))
      actions = session.moved(over: over, to: position)
    case 2:
      let window =
        input.choice(4) < 3
        ? input.pick(targets.flatMap { [$0.window, $0.messageWindow] }) : XWindow(rawValue: 999)
      if let current = entered, window == current.window || window == current.messageWindow {
        awaitingStatus = false
      }
      let rectangle = XdndRectangle(
        x: input.choice(40), y: input.choice(40), width: input.choice(40), height: input.choice(40))
      actions = session.statusReceived(
        target: window, accept: input.bool(), wantsPositionsInside: input.bool(),
        rectangle: rectangle,
        action: input.pick([nil, .copy, .move]))
    case 3:
      actions = session.released(at: XTimestamp(rawValue: UInt(input.byte())))
    case 4:
      let window = input.pick(targets.flatMap { [$0.window, $0.messageWindow] })
      actions = session.finishedReceived(
        target: window, success: input.bool(), action: input.pick([nil, .copy, .link]))
    case 5:
      actions = session.cancelled()
    default:
      actions = session.deadlinePassed()
    }
    if finished { require(actions.isEmpty, "\(actions) after the drag finished") }
    for action in actions {
      switch action {
      case .send(let message, let target):
        switch message {
        case .enter(let named, let version, _, _):
          require(entered == nil, "entered \(target.window) without leaving \(entered!.window)")
          require(named == source && version >= 3 && version <= 5, "\(message)")
          require(!dropped, "an enter after the drop")
          entered = target
          awaitingStatus = false
        case .position(let named, _, _, _, _):
          require(named == source, "\(message)")
          require(entered == target, "a position to \(target.window), which was not entered")
          require(!awaitingStatus, "a position before the status of the last one")
          require(!dropped, "a position after the drop")
          awaitingStatus = true
        case .leave(let named):
          require(
            named == source && entered == target,
            "a leave to \(target.window), which was not entered")
          require(!dropped, "a leave after the drop")
          entered = nil
        case .drop(let named, _):
          require(
            named == source && entered == target,
            "a drop on \(target.window), which was not entered")
          require(!dropped, "a second drop")
          dropped = true
        case .status, .finished:
          require(false, "the source sent \(message)")
        }
      case .releaseGrab:
        require(!grabReleased, "the grab was released twice")
        grabReleased = true
      case .finish:
        require(!finished, "the drag finished twice")
        finished = true
        require(session.isOver, "finished but the session is not over")
      case .startDeadline, .cancelDeadline:
        break
      }
    }
  }
}
