/// An X event, decoded once from Xlib's union into what the protocols need.
enum X11Event: Sendable {
  /// Someone asks the owner of `selection` to convert it to `target` into `property`.
  struct SelectionRequest: Sendable {
    var owner: XWindow
    var requestor: XWindow
    var selection: XAtom
    var target: XAtom
    var property: XAtom
    var time: XTimestamp
  }

  /// The answer to a conversion request; `property == .none` is a refusal.
  struct SelectionNotify: Sendable {
    var requestor: XWindow
    var selection: XAtom
    var target: XAtom
    var property: XAtom
    var time: XTimestamp
  }

  /// What XFixes reports about a selection's owner.
  struct OwnerChange: Sendable {
    enum Kind: Int32, Sendable { case newOwner = 0, windowDestroyed = 1, clientClosed = 2 }
    var kind: Kind
    var selection: XAtom
    var owner: XWindow
    var time: XTimestamp
    var selectionTime: XTimestamp
  }

  /// A format-32 client message.
  struct ClientMessage: Sendable {
    var window: XWindow
    var type: XAtom
    var data: [Int]
  }

  /// A pointer event in root coordinates.
  struct Pointer: Sendable {
    var window: XWindow
    var rootX: Int
    var rootY: Int
    var x: Int
    var y: Int
    var button: Int
    var time: XTimestamp
    /// The modifier keys and buttons held.
    var state: Modifiers = []
  }

  case selectionRequest(SelectionRequest)
  case selectionClear(selection: XAtom, window: XWindow, time: XTimestamp)
  case selectionNotify(SelectionNotify)
  case propertyNotify(window: XWindow, atom: XAtom, time: XTimestamp, deleted: Bool)
  case destroyNotify(window: XWindow)
  case clientMessage(ClientMessage)
  case ownerChange(OwnerChange)
  case expose(window: XWindow, count: Int)
  case buttonPress(Pointer)
  case buttonRelease(Pointer)
  case motion(Pointer)
  case keyPress(window: XWindow, keycode: UInt32, time: XTimestamp)
  case configure(window: XWindow, width: Int, height: Int)
  case unhandled(type: Int32)
}
