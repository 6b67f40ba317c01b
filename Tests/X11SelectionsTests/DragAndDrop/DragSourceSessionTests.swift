import FerryTestSupport
import Testing

@testable import X11Selections

extension DragAndDropTests {
  /// The source's side of XDND as a value: what goes out for each move, answer, release,
  /// Escape and deadline.
  @Suite struct DragSourceSessionTests {
    typealias Session = DragSourceSession
    static let source = XWindow(rawValue: 0x20_0001)
    static let gtk = Session.Target(
      window: XWindow(rawValue: 0x40_0003), messageWindow: XWindow(rawValue: 0x40_0003), version: 5)
    static let other = Session.Target(
      window: XWindow(rawValue: 0x50_0003), messageWindow: XWindow(rawValue: 0x50_0003), version: 5)
    static let proxied = Session.Target(
      window: XWindow(rawValue: 0x60_0003), messageWindow: XWindow(rawValue: 0x60_0100), version: 4)
    static let types = (1...5).map { XAtom(rawValue: UInt(400 + $0)) }

    static func at(_ x: Int, _ y: Int, _ time: UInt = 100, _ action: DragAction = .copy)
      -> Session.Position
    {
      Session.Position(rootX: x, rootY: y, time: XTimestamp(rawValue: time), action: action)
    }

    static func accept(
      _ session: inout Session, target: Session.Target = gtk, accept: Bool = true,
      inside: Bool = false,
      rectangle: XdndRectangle = .empty, action: DragAction? = .copy
    ) -> [Session.Action] {
      session.statusReceived(
        target: target.window, accept: accept, wantsPositionsInside: inside, rectangle: rectangle,
        action: action)
    }

    private func overGTK(types: [XAtom] = types) -> Session {
      var session = Session(source: Self.source, types: types)
      _ = session.moved(over: Self.gtk, to: Self.at(480, 90))
      _ = Self.accept(&session)
      return session
    }

    private func sent(_ actions: [Session.Action]) -> [XdndMessage] {
      actions.compactMap { if case .send(let message, _) = $0 { message } else { nil } }
    }

    @Test func movingOverNothingSendsNothing() {
      var session = Session(source: Self.source, types: Self.types)
      #expect(session.moved(over: nil, to: Self.at(10, 10)) == [])
      #expect(session.state == .searching)
    }

    @Test(arguments: [
      (count: 1, more: false), (count: 3, more: false), (count: 4, more: true),
      (count: 5, more: true),
    ])
    func enteringSendsEnterThenPosition(count: Int, more: Bool) {
      let types = Array(Self.types.prefix(count))
      var session = Session(source: Self.source, types: types)
      let actions = session.moved(over: Self.gtk, to: Self.at(480, 90, 7))
      #expect(
        actions == [
          .send(
            .enter(
              source: Self.source, version: 5, moreThanThreeTypes: more,
              types: Array(types.prefix(3))), to: Self.gtk),
          .send(
            .position(
              source: Self.source, rootX: 480, rootY: 90, time: XTimestamp(rawValue: 7),
              action: .copy), to: Self.gtk),
        ])
    }

    @Test(arguments: [
      (target: 3, used: 3), (target: 4, used: 4), (target: 5, used: 5), (target: 6, used: 5),
      (target: 9, used: 5),
    ])
    func theVersionIsTheLowerOfBoth(target: Int, used: Int) {
      var session = Session(source: Self.source, types: Self.types)
      let window = Session.Target(
        window: Self.gtk.window, messageWindow: Self.gtk.window, version: target)
      guard
        case .send(.enter(_, let version, _, _), _) = session.moved(over: window, to: Self.at(1, 1))
          .first
      else {
        Issue.record("no enter")
        return
      }
      #expect(version == used)
    }

    @Test(arguments: [0, 1, 2])
    func targetsBelowVersionThreeAreNotSpokenTo(version: Int) {
      var session = Session(source: Self.source, types: Self.types)
      let old = Session.Target(
        window: Self.gtk.window, messageWindow: Self.gtk.window, version: version)
      #expect(session.moved(over: old, to: Self.at(1, 1)) == [])
      #expect(session.released(at: XTimestamp(rawValue: 9)) == [.releaseGrab, .finish(.noTarget)])
    }

    /// No new position before the status of the previous one; moves meanwhile coalesce.
    @Test func positionsWaitForTheStatusAndCoalesce() {
      var session = Session(source: Self.source, types: Self.types)
      _ = session.moved(over: Self.gtk, to: Self.at(480, 90, 1))
      #expect(session.moved(over: Self.gtk, to: Self.at(490, 95, 2)) == [])
      #expect(session.moved(over: Self.gtk, to: Self.at(500, 100, 3)) == [])
      let actions = Self.accept(&session)
      #expect(
        sent(actions) == [
          .position(
            source: Self.source, rootX: 500, rootY: 100, time: XTimestamp(rawValue: 3),
            action: .copy)
        ])
      #expect(Self.accept(&session) == [], "nothing pending")
    }

    @Test func positionsFollowEveryMoveOnceAnswered() {
      var session = overGTK()
      #expect(sent(session.moved(over: Self.gtk, to: Self.at(501, 101))).count == 1)
    }

    @Test func noPositionInsideTheRectangleUnlessTheTargetAsks() {
      var session = Session(source: Self.source, types: Self.types)
      _ = session.moved(over: Self.gtk, to: Self.at(480, 90))
      let rectangle = XdndRectangle(x: 400, y: 0, width: 200, height: 200)
      _ = Self.accept(&session, rectangle: rectangle)
      #expect(session.moved(over: Self.gtk, to: Self.at(500, 100)) == [])
      #expect(
        sent(session.moved(over: Self.gtk, to: Self.at(500, 100, 5, .move))).count == 1,
        "a new action is news")
      _ = Self.accept(&session, inside: true, rectangle: rectangle)
      #expect(
        sent(session.moved(over: Self.gtk, to: Self.at(510, 100, 6, .move))).count == 1,
        "bit 1 asks for every move")
    }

    @Test func changingTargetLeavesTheOldAndEntersTheNew() {
      var session = overGTK()
      let actions = session.moved(over: Self.other, to: Self.at(700, 90))
      #expect(actions.count == 3)
      #expect(actions[0] == .send(.leave(source: Self.source), to: Self.gtk))
      guard case .send(.enter, let to) = actions[1] else {
        Issue.record("no enter")
        return
      }
      #expect(to == Self.other)
      #expect(sent([actions[2]]).count == 1)
    }

    @Test func leavingForNothingSendsLeave() {
      var session = overGTK()
      #expect(
        session.moved(over: nil, to: Self.at(0, 0)) == [
          .send(.leave(source: Self.source), to: Self.gtk)
        ])
      #expect(session.state == .searching)
    }

    /// A status from a window that is not the current target is not this session's.
    @Test func answersFromOtherWindowsAreIgnored() {
      var session = Session(source: Self.source, types: Self.types)
      _ = session.moved(over: Self.gtk, to: Self.at(480, 90))
      _ = session.moved(over: Self.gtk, to: Self.at(490, 90))
      #expect(Self.accept(&session, target: Self.other) == [])
      #expect(
        session.released(at: XTimestamp(rawValue: 200)) == [
          .releaseGrab, .startDeadline(Session.statusAfterReleaseTimeout),
        ])
    }

    @Test func proxiedTargetsAnswerFromEitherWindow() {
      var session = Session(source: Self.source, types: Self.types)
      let enter = session.moved(over: Self.proxied, to: Self.at(1, 1))
      #expect(
        enter.allSatisfy { if case .send(_, let to) = $0 { to == Self.proxied } else { false } })
      let proxy = Session.Target(
        window: Self.proxied.messageWindow, messageWindow: Self.proxied.messageWindow, version: 4)
      _ = Self.accept(&session, target: proxy)
      guard case .over(let over) = session.state else {
        Issue.record("not over")
        return
      }
      #expect(over.status?.accept == true)
    }

    @Test func releaseOverAnAcceptingTargetDrops() {
      var session = overGTK()
      let time = XTimestamp(rawValue: 900)
      #expect(
        session.released(at: time) == [
          .releaseGrab, .send(.drop(source: Self.source, time: time), to: Self.gtk),
          .startDeadline(Session.finishedTimeout),
        ])
      #expect(Self.accept(&session) == [], "too late for a status")
      #expect(
        session.finishedReceived(target: Self.gtk.window, success: true, action: .copy) == [
          .cancelDeadline, .finish(.dropped(target: Self.gtk.window, action: .copy)),
        ])
      #expect(session.isOver)
    }

    @Test func releaseOverARejectingTargetLeaves() {
      var session = Session(source: Self.source, types: Self.types)
      _ = session.moved(over: Self.gtk, to: Self.at(480, 90))
      _ = Self.accept(&session, accept: false, action: nil)
      #expect(
        session.released(at: XTimestamp(rawValue: 900)) == [
          .releaseGrab, .cancelDeadline, .send(.leave(source: Self.source), to: Self.gtk),
          .finish(.rejected(target: Self.gtk.window)),
        ])
    }

    @Test func releaseOverNothingEndsWithNoTarget() {
      var session = Session(source: Self.source, types: Self.types)
      #expect(
        session.released(at: XTimestamp(rawValue: 900)) == [.releaseGrab, .finish(.noTarget)])
    }

    /// Released before any status: wait for it, then decide.
    @Test(arguments: [true, false])
    func releaseBeforeTheStatusWaitsForIt(accepts: Bool) {
      var session = Session(source: Self.source, types: Self.types)
      _ = session.moved(over: Self.gtk, to: Self.at(480, 90))
      let time = XTimestamp(rawValue: 900)
      #expect(
        session.released(at: time) == [
          .releaseGrab, .startDeadline(Session.statusAfterReleaseTimeout),
        ])
      #expect(session.moved(over: nil, to: Self.at(0, 0)) == [], "no moves after the release")
      let actions = Self.accept(&session, accept: accepts, action: accepts ? .copy : nil)
      if accepts {
        #expect(
          actions == [
            .send(.drop(source: Self.source, time: time), to: Self.gtk),
            .startDeadline(Session.finishedTimeout),
          ])
      } else {
        #expect(
          actions == [
            .cancelDeadline, .send(.leave(source: Self.source), to: Self.gtk),
            .finish(.rejected(target: Self.gtk.window)),
          ])
      }
    }

    /// A target that never answers: the source gives up with a leave after the deadline.
    @Test func aSilentTargetIsGivenUpOnAfterTheRelease() {
      var session = Session(source: Self.source, types: Self.types)
      _ = session.moved(over: Self.gtk, to: Self.at(480, 90))
      _ = session.moved(over: Self.gtk, to: Self.at(500, 100))
      _ = session.released(at: XTimestamp(rawValue: 900))
      let outcome = DragOutcome.targetDidNotAnswer(target: Self.gtk.window, awaiting: "XdndStatus")
      #expect(
        session.deadlinePassed() == [
          .send(.leave(source: Self.source), to: Self.gtk), .finish(outcome),
        ])
      #expect(session.state == .ended(outcome))
      #expect(Self.accept(&session) == [], "a late answer changes nothing")
      #expect(session.deadlinePassed() == [])
    }

    @Test func aTargetThatNeverFinishesIsGivenUpOnWithoutALeave() {
      var session = overGTK()
      _ = session.released(at: XTimestamp(rawValue: 900))
      #expect(
        session.deadlinePassed() == [
          .finish(.targetDidNotAnswer(target: Self.gtk.window, awaiting: "XdndFinished"))
        ])
    }

    @Test func aFinishedFromAnotherWindowIsIgnored() {
      var session = overGTK()
      _ = session.released(at: XTimestamp(rawValue: 900))
      #expect(
        session.finishedReceived(target: Self.other.window, success: true, action: .copy) == [])
      #expect(!session.isOver)
    }

    @Test(arguments: [
      (
        version: 5, success: false, action: DragAction?.none,
        outcome: DragOutcome.failed(target: XWindow(rawValue: 0x40_0003))
      ),
      (
        version: 5, success: true, action: .move,
        outcome: .dropped(target: XWindow(rawValue: 0x40_0003), action: .move)
      ),
      (
        version: 4, success: false, action: nil,
        outcome: .dropped(target: XWindow(rawValue: 0x40_0003), action: .copy)
      ),
    ])
    func finishedIsReadAsTheVersionAllows(
      version: Int, success: Bool, action: DragAction?, outcome: DragOutcome
    ) {
      let target = Session.Target(
        window: Self.gtk.window, messageWindow: Self.gtk.window, version: version)
      var session = Session(source: Self.source, types: Self.types)
      _ = session.moved(over: target, to: Self.at(480, 90))
      _ = Self.accept(&session, target: target)
      _ = session.released(at: XTimestamp(rawValue: 900))
      #expect(
        session.finishedReceived(target: target.window, success: success, action: action) == [
          .cancelDeadline, .finish(outcome),
        ])
    }

    @Test func escapeOverATargetLeavesAndReleasesTheGrab() {
      var session = overGTK()
      #expect(
        session.cancelled() == [
          .send(.leave(source: Self.source), to: Self.gtk), .releaseGrab, .finish(.cancelled),
        ])
      #expect(session.released(at: XTimestamp(rawValue: 1)) == [])
    }

    /// Escape while waiting for the status after the release: the grab is already gone.
    @Test func escapeWhileWaitingForTheStatusLeavesWithoutAnotherUngrab() {
      var session = Session(source: Self.source, types: Self.types)
      _ = session.moved(over: Self.gtk, to: Self.at(480, 90))
      _ = session.released(at: XTimestamp(rawValue: 900))
      #expect(
        session.cancelled() == [
          .send(.leave(source: Self.source), to: Self.gtk), .cancelDeadline, .finish(.cancelled),
        ])
    }

    @Test func escapeOverNothingReleasesTheGrab() {
      var session = Session(source: Self.source, types: Self.types)
      #expect(session.cancelled() == [.releaseGrab, .finish(.cancelled)])
    }

    @Test func escapeAfterTheDropChangesNothing() {
      var session = overGTK()
      _ = session.released(at: XTimestamp(rawValue: 900))
      #expect(session.cancelled() == [])
    }

    /// Whatever happens, the grab is released exactly once before the end, and the drag ends once.
    @Test(arguments: 0..<64)
    func everyPathReleasesTheGrabOnceAndEndsOnce(seed: Int) {
      var generator = SplitMix64(seed: UInt64(seed))
      var session = Session(source: Self.source, types: Self.types)
      var releases = 0
      var finishes = 0
      var ended = false
      for step in 0..<40 {
        let actions: [Session.Action]
        switch generator.next() % 7 {
        case 0:
          actions = session.moved(
            over: [nil, Self.gtk, Self.other].randomElement(using: &generator)!,
            to: Self.at(step, step))
        case 1:
          actions = Self.accept(
            &session, target: Bool.random(using: &generator) ? Self.gtk : Self.other,
            accept: Bool.random(using: &generator))
        case 2: actions = step > 20 ? session.released(at: XTimestamp(rawValue: UInt(step))) : []
        case 3:
          actions = session.finishedReceived(target: Self.gtk.window, success: true, action: .copy)
        case 4: actions = step > 30 ? session.cancelled() : []
        case 5: actions = session.deadlinePassed()
        default: actions = session.moved(over: Self.gtk, to: Self.at(step, 0))
        }
        if ended { #expect(actions.isEmpty, "nothing after the end") }
        releases += actions.filter { $0 == .releaseGrab }.count
        finishes += actions.filter { if case .finish = $0 { true } else { false } }.count
        if finishes > 0 { ended = true }
      }
      #expect(releases <= 1)
      #expect(finishes <= 1)
      if finishes == 1 { #expect(releases == 1, "every end comes after the grab is released") }
    }
  }
}
