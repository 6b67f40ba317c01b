internal import CX11

/// Selection ownership and conversion, sent events, and XFixes owner-change input.
extension X11Connection {
  /// Makes `window` the owner of `selection` from `time` on (`.none` gives it up).
  public func setSelectionOwner(_ selection: XAtom, _ window: XWindow, time: XTimestamp) {
    XSetSelectionOwner(
      display, Atom(selection.rawValue), Window(window.rawValue), Time(time.rawValue))
  }

  /// The window owning `selection`, or `.none`.
  public func selectionOwner(_ selection: XAtom) -> XWindow {
    XWindow(rawValue: UInt(XGetSelectionOwner(display, Atom(selection.rawValue))))
  }

  /// Asks the owner of `selection` to convert it to `target` into `property` of `requestor`.
  public func convertSelection(
    _ selection: XAtom, target: XAtom, property: XAtom, requestor: XWindow, time: XTimestamp
  ) {
    XConvertSelection(
      display, Atom(selection.rawValue), Atom(target.rawValue), Atom(property.rawValue),
      Window(requestor.rawValue), Time(time.rawValue))
  }

  /// Answers a `SelectionRequest`; `property == .none` refuses it.
  public func sendSelectionNotify(
    requestor: XWindow, selection: XAtom, target: XAtom, property: XAtom, time: XTimestamp
  ) {
    var event = XEvent()
    event.xselection.type = SelectionNotify
    event.xselection.requestor = Window(requestor.rawValue)
    event.xselection.selection = Atom(selection.rawValue)
    event.xselection.target = Atom(target.rawValue)
    event.xselection.property = Atom(property.rawValue)
    event.xselection.time = Time(time.rawValue)
    XSendEvent(display, Window(requestor.rawValue), 0, 0, &event)
  }

  /// Sends a format-32 client message to `window`, about `subject` (`window` by default),
  /// with up to five longs of `data`.
  public func sendClientMessage(
    to window: XWindow, about subject: XWindow? = nil, type: XAtom, data: [Int],
    mask: XWindow.EventMask = []
  ) {
    var event = XEvent()
    event.xclient.type = ClientMessage
    event.xclient.window = Window((subject ?? window).rawValue)
    event.xclient.message_type = Atom(type.rawValue)
    event.xclient.format = 32
    for (index, value) in data.prefix(5).enumerated() {
      cx11_set_client_long(&event, Int32(index), value)
    }
    XSendEvent(display, Window(window.rawValue), 0, mask.rawValue, &event)
  }

  /// Watches a selection's owner changes through XFixes: new owner, owner window destroyed,
  /// owner client closed (``X11Event/ownerChange(_:)``).
  public func watchSelection(_ selection: XAtom) {
    let mask = UInt(
      XFixesSetSelectionOwnerNotifyMask | XFixesSelectionWindowDestroyNotifyMask
        | XFixesSelectionClientCloseNotifyMask)
    XFixesSelectSelectionInput(display, Window(root.rawValue), Atom(selection.rawValue), mask)
  }
}
