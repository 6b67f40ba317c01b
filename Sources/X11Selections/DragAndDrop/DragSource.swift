import FoundationEssentials
import Pasteboard

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One XDND 5 drag from a window of this connection: the Xlib side of
/// ``DragSourceSession``. Lives on the X thread, from the press that starts it to the end.
///
/// The session's utility window is the source named in every message, as GTK's hidden IPC
/// window is: it owns `XdndSelection` (served by the same owner code as `CLIPBOARD`, which
/// keeps answering while the drag waits) and holds `XdndTypeList`. The visible window holds
/// the pointer and keyboard grabs.
///
/// `package` for the drag windows of `DragWindows`, which start one on a press and a move.
package final class DragSource {
  /// Why a drag could not start.
  package enum StartFailure: Error, CustomStringConvertible {
    /// `XdndSelection` could not be taken.
    case ownership(X11Error)
    /// Another client holds the pointer.
    case pointerGrabbed

    /// One line saying why.
    package var description: String {
      switch self {
      case .ownership(let error): "\(error)"
      case .pointerGrabbed: "another client holds the pointer, so the drag cannot start"
      }
    }
  }

  /// The keysym of Escape (`XK_Escape` in keysymdef.h).
  private static let escapeKeysym: UInt = 0xff1b

  unowned let session: X11Session
  let grabWindow: XWindow
  private var machine: DragSourceSession
  private let vocabulary: XdndVocabulary
  private let ownershipTime: XTimestamp
  private let defaultAction: DragAction
  private let escapeKeycode: UInt32
  private let onEnd: (DragOutcome) -> Void
  private var handlerID: UUID?
  private var deadline: UUID?
  private var latestMotion: X11Event.Pointer?
  private var motionTimer: UUID?
  private let cursor: UInt

  /// Takes `XdndSelection`, publishes the types, grabs the pointer and keyboard, and reports
  /// the first position.
  ///
  /// - Parameters:
  ///   - grabWindow: The visible window the press happened in.
  ///   - item: What the drop delivers.
  ///   - types: The item's X targets, in order (``targets(for:)``).
  ///   - action: The action asked for when no modifier is held (Shift: move, Ctrl+Shift: link).
  ///   - start: The motion that crossed the drag threshold.
  ///   - onEnd: Called once, on the X thread, when the drag is over.
  /// - Throws: ``StartFailure``.
  package init(
    session: X11Session, grabWindow: XWindow, item: PasteboardItem, types: [String],
    action: DragAction,
    start: X11Event.Pointer, onEnd: @escaping (DragOutcome) -> Void
  ) throws(StartFailure) {
    self.session = session
    self.grabWindow = grabWindow
    self.defaultAction = action
    self.onEnd = onEnd
    let connection = session.connection
    vocabulary = XdndVocabulary(connection.atoms)
    escapeKeycode = connection.keycode(forKeysym: Self.escapeKeysym)
    let typeAtoms = connection.atoms(types)
    machine = DragSourceSession(source: session.window, types: typeAtoms)
    do {
      ownershipTime = try session.owner.own(
        connection.atoms[.xdndSelection], item: item, onLost: {})
    } catch let error as X11Error {
      throw .ownership(error)
    } catch {
      throw .ownership(.ownershipRefused(.xdnd))
    }
    connection.setProperty(
      of: session.window, connection.atoms[.xdndTypeList], type: .atom,
      values: typeAtoms.map(\.rawValue))
    cursor = connection.dragCursor()
    guard connection.grabPointer(grabWindow, cursor: cursor, time: start.time) else {
      connection.freeCursor(cursor)
      connection.deleteProperty(of: session.window, connection.atoms[.xdndTypeList])
      session.owner.disown(connection.atoms[.xdndSelection])
      connection.flush()
      throw .pointerGrabbed
    }
    // Without the keyboard, Escape cannot cancel; the drag still works.
    _ = connection.grabKeyboard(grabWindow, time: start.time)
    handlerID = session.addEventHandler { event in self.handle(event) }  // kept alive until finish
    move(to: start)
    connection.flush()
  }

  /// The X targets a drag of `item` offers, in order: those the owner serves on `CLIPBOARD`.
  package static func targets(for item: PasteboardItem) async -> [String] {
    await TargetTable.make(for: item).entries.map(\.name)
  }

  // MARK: Events

  private func handle(_ event: X11Event) -> Bool {
    switch event {
    case .motion(let pointer):
      // Coalesce: the latest position is handled once the queue is drained.
      latestMotion = pointer
      if motionTimer == nil {
        motionTimer = session.schedule(after: .zero) { _ in self.flushMotion() }
      }
      return true
    case .buttonRelease(let pointer):
      flushMotion()
      perform(machine.released(at: stamp(pointer.time)))
      return true
    case .buttonPress:
      return true
    case .keyPress(_, let keycode, _):
      if keycode == escapeKeycode { perform(machine.cancelled()) }
      return true
    case .clientMessage(let message) where message.window == session.window:
      guard
        let decoded = XdndMessage(type: message.type, data: message.data, vocabulary: vocabulary)
      else {
        return false
      }
      switch decoded {
      case .status(let target, let accept, let inside, let rectangle, let action):
        perform(
          machine.statusReceived(
            target: target, accept: accept, wantsPositionsInside: inside, rectangle: rectangle,
            action: action))
      case .finished(let target, let success, let action):
        perform(machine.finishedReceived(target: target, success: success, action: action))
      default:
        return false
      }
      return true
    default:
      return false
    }
  }

  private func flushMotion() {
    session.cancelTimer(motionTimer)
    motionTimer = nil
    guard let pointer = latestMotion else { return }
    latestMotion = nil
    move(to: pointer)
  }

  private func move(to pointer: X11Event.Pointer) {
    let position = DragSourceSession.Position(
      rootX: pointer.rootX, rootY: pointer.rootY, time: stamp(pointer.time),
      action: action(for: pointer.state))
    perform(machine.moved(over: target(at: pointer.rootX, pointer.rootY), to: position))
  }

  /// The action the modifiers ask for, as GTK reads them.
  private func action(for state: X11Event.Modifiers) -> DragAction {
    switch (state.contains(.shift), state.contains(.control)) {
    case (true, true): .link
    case (true, false): .move
    case (false, true): .copy
    case (false, false): defaultAction
    }
  }

  /// Times in messages are never older than the ownership, or the owner code would refuse
  /// the target's conversions as meant for an earlier owner.
  private func stamp(_ time: XTimestamp) -> XTimestamp {
    time == .current || time < ownershipTime ? ownershipTime : time
  }

  /// The `XdndAware` window under the root point, with its proxy and version.
  private func target(at x: Int, _ y: Int) -> DragSourceSession.Target? {
    let connection = session.connection
    let atoms = connection.atoms
    defer { _ = connection.takeErrors() }  // windows may vanish under the pointer
    guard let window = connection.deepestWindow(at: x, y, having: atoms[.xdndAware], skipping: [])
    else { return nil }
    var messageWindow = window
    // XdndProxy counts only when the proxy names itself too.
    if let proxy = connection.property(of: window, atoms[.xdndProxy], delete: false)?.values.first,
      connection.property(of: XWindow(rawValue: proxy), atoms[.xdndProxy], delete: false)?.values
        .first == proxy
    {
      messageWindow = XWindow(rawValue: proxy)
    }
    let aware =
      connection.property(of: messageWindow, atoms[.xdndAware], delete: false)?.values.first
      ?? connection.property(of: window, atoms[.xdndAware], delete: false)?.values.first
    guard let version = aware else { return nil }
    return DragSourceSession.Target(
      window: window, messageWindow: messageWindow, version: Int(version))
  }

  // MARK: Actions

  private func perform(_ actions: [DragSourceSession.Action]) {
    let connection = session.connection
    for action in actions {
      switch action {
      case .send(let message, let target):
        let (type, data) = message.encoded(vocabulary)
        connection.sendClientMessage(
          to: target.messageWindow, about: target.window, type: type, data: data)
      case .releaseGrab:
        connection.ungrabPointerAndKeyboard(time: .current)
      case .startDeadline(let duration):
        session.cancelTimer(deadline)
        deadline = session.schedule(after: duration) { _ in
          self.deadline = nil
          self.perform(self.machine.deadlinePassed())
        }
      case .cancelDeadline:
        session.cancelTimer(deadline)
        deadline = nil
      case .finish(let outcome):
        finish(outcome)
      }
    }
    connection.flush()
  }

  private func finish(_ outcome: DragOutcome) {
    let connection = session.connection
    if let handlerID { session.removeEventHandler(handlerID) }
    handlerID = nil
    session.cancelTimer(deadline)
    session.cancelTimer(motionTimer)
    connection.ungrabPointerAndKeyboard(time: .current)
    connection.freeCursor(cursor)
    // A target that went quiet after the drop may still be reading: keep serving it.
    if case .targetDidNotAnswer(_, "XdndFinished") = outcome {
    } else {
      session.owner.disown(connection.atoms[.xdndSelection])
      connection.deleteProperty(of: session.window, connection.atoms[.xdndTypeList])
    }
    connection.flush()
    onEnd(outcome)
  }
}
