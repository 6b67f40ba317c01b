/// An X event, decoded once from Xlib's union into what the protocols need.
///
/// `package` for the windows of `DragWindows`, which take their own events on the X thread.
package enum X11Event: Sendable {
  /// Someone asks the owner of `selection` to convert it to `target` into `property`.
  package struct SelectionRequest: Sendable {
    var owner: XWindow
    var requestor: XWindow
    var selection: XAtom
    var target: XAtom
    var property: XAtom
    var time: XTimestamp
  }

  /// The answer to a conversion request; `property == .none` is a refusal.
  package struct SelectionNotify: Sendable {
    var requestor: XWindow
    var selection: XAtom
    var target: XAtom
    var property: XAtom
    var time: XTimestamp
  }

  /// What XFixes reports about a selection's owner.
  package struct OwnerChange: Sendable {
    enum Kind: Int32, Sendable { case newOwner = 0, windowDestroyed = 1, clientClosed = 2 }
    var kind: Kind
    var selection: XAtom
    var owner: XWindow
    var time: XTimestamp
    var selectionTime: XTimestamp
  }

  /// A format-32 client message.
  package struct ClientMessage: Sendable {
    /// The window it was sent to (or is about).
    package var window: XWindow
    /// The message type.
    package var type: XAtom
    /// The five longs of data.
    package var data: [Int]
  }

  /// A pointer event in root coordinates.
  package struct Pointer: Sendable {
    /// The window the event is reported to.
    package var window: XWindow
    /// The pointer's position on the root window.
    package var rootX: Int
    /// The pointer's position on the root window.
    package var rootY: Int
    /// The pointer's position in ``window``.
    package var x: Int
    /// The pointer's position in ``window``.
    package var y: Int
    /// The button pressed or released (1 is the left one); 0 for motion.
    package var button: Int
    /// The server time of the event.
    package var time: XTimestamp
    /// The modifier keys and buttons held.
    var state: Modifiers = []
  }

  /// `SelectionRequest`: a conversion asked of an owner.
  case selectionRequest(SelectionRequest)
  /// `SelectionClear`: another client took `selection`.
  case selectionClear(selection: XAtom, window: XWindow, time: XTimestamp)
  /// `SelectionNotify`: an owner's answer.
  case selectionNotify(SelectionNotify)
  /// `PropertyNotify`: a property of `window` changed or was deleted.
  case propertyNotify(window: XWindow, atom: XAtom, time: XTimestamp, deleted: Bool)
  /// `DestroyNotify`: `window` is gone.
  case destroyNotify(window: XWindow)
  /// `ClientMessage`, format 32.
  case clientMessage(ClientMessage)
  /// An XFixes selection owner change.
  case ownerChange(OwnerChange)
  /// `Expose`: part of `window` needs drawing; `count` more such events follow.
  case expose(window: XWindow, count: Int)
  /// `ButtonPress`.
  case buttonPress(Pointer)
  /// `ButtonRelease`.
  case buttonRelease(Pointer)
  /// `MotionNotify`.
  case motion(Pointer)
  /// `KeyPress`.
  case keyPress(window: XWindow, keycode: UInt32, time: XTimestamp)
  /// `ConfigureNotify`: `window` has this size now.
  case configure(window: XWindow, width: Int, height: Int)
  /// Any other event, by its Xlib type number.
  case unhandled(type: Int32)
}
