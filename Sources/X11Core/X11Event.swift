/// An X event, decoded once from Xlib's union into what the protocols need.
///
/// The selection protocols (`X11Selections`) and the windows (`DragWindows`) take them on
/// the X thread, from ``X11Connection/nextEvent()``.
public enum X11Event: Sendable {
  /// Someone asks the owner of `selection` to convert it to `target` into `property`.
  public struct SelectionRequest: Sendable {
    /// The owner asked: this client's window.
    public var owner: XWindow
    /// The window to put the answer on.
    public var requestor: XWindow
    /// The selection to convert.
    public var selection: XAtom
    /// The target to convert it to.
    public var target: XAtom
    /// The property of ``requestor`` to put the answer in (`.none` from obsolete clients).
    public var property: XAtom
    /// The requestor's time of the request.
    public var time: XTimestamp
  }

  /// The answer to a conversion request; `property == .none` is a refusal.
  public struct SelectionNotify: Sendable {
    /// The window that asked.
    public var requestor: XWindow
    /// The selection converted.
    public var selection: XAtom
    /// The target asked for.
    public var target: XAtom
    /// The property of ``requestor`` holding the answer; `.none` for a refusal.
    public var property: XAtom
    /// The time of the request answered.
    public var time: XTimestamp
  }

  /// What XFixes reports about a selection's owner.
  public struct OwnerChange: Sendable {
    /// Why the owner changed.
    public enum Kind: Int32, Sendable {
      /// A client took the selection.
      case newOwner = 0
      /// The owner's window was destroyed.
      case windowDestroyed = 1
      /// The owner's client closed its connection.
      case clientClosed = 2
    }
    /// Why the owner changed.
    public var kind: Kind
    /// The selection.
    public var selection: XAtom
    /// The new owner, or `.none`.
    public var owner: XWindow
    /// The server time of the change.
    public var time: XTimestamp
    /// The time the new owner gave for taking the selection.
    public var selectionTime: XTimestamp
  }

  /// A format-32 client message.
  public struct ClientMessage: Sendable {
    /// The window it was sent to (or is about).
    public var window: XWindow
    /// The message type.
    public var type: XAtom
    /// The five longs of data.
    public var data: [Int]
  }

  /// A pointer event in root coordinates.
  public struct Pointer: Sendable {
    /// The window the event is reported to.
    public var window: XWindow
    /// The pointer's position on the root window.
    public var rootX: Int
    /// The pointer's position on the root window.
    public var rootY: Int
    /// The pointer's position in ``window``.
    public var x: Int
    /// The pointer's position in ``window``.
    public var y: Int
    /// The button pressed or released (1 is the left one); 0 for motion.
    public var button: Int
    /// The server time of the event.
    public var time: XTimestamp
    /// The modifier keys and buttons held.
    public var state: Modifiers = []
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
