internal import CX11

/// Reading events, and the server's time.
extension X11Connection {
  /// Events already read from the socket or waiting in it, without blocking.
  public func pendingEvents() -> Int32 { XPending(display) }

  /// The next event, decoded; call only when ``pendingEvents()`` is positive.
  public func nextEvent() -> X11Event {
    var event = XEvent()
    XNextEvent(display, &event)
    return X11Event(event, xfixesEventBase: xfixesEventBase)
  }

  /// The current server time: a zero-length append to a property of `window` makes the
  /// server send a `PropertyNotify` carrying its time (ICCCM §2.1). `window` must select
  /// `PropertyChangeMask`.
  public func serverTime(using window: XWindow) -> XTimestamp? {
    let empty = [UInt8]()
    empty.withUnsafeBytes {
      setProperty(of: window, atoms[.ferryTimestamp], type: .string, bytes: $0, append: true)
    }
    XSync(display, 0)
    var others: [XEvent] = []
    defer {
      for var event in others.reversed() { XPutBackEvent(display, &event) }
    }
    var event = XEvent()
    while XCheckTypedWindowEvent(display, Window(window.rawValue), PropertyNotify, &event) != 0 {
      if event.xproperty.atom == Atom(atoms[.ferryTimestamp].rawValue) {
        return XTimestamp(rawValue: UInt(event.xproperty.time))
      }
      others.append(event)
    }
    return nil
  }
}
