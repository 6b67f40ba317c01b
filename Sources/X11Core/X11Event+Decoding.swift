internal import CX11

extension X11Event {
  /// Decodes an Xlib event. Nothing above this file sees `XEvent`.
  init(_ event: XEvent, xfixesEventBase: Int32) {
    var event = event
    let type = cx11_event_type(&event)
    switch type {
    case CX11.SelectionRequest:
      let request = event.xselectionrequest
      self = .selectionRequest(
        SelectionRequest(
          owner: XWindow(rawValue: UInt(request.owner)),
          requestor: XWindow(rawValue: UInt(request.requestor)),
          selection: XAtom(rawValue: UInt(request.selection)),
          target: XAtom(rawValue: UInt(request.target)),
          property: XAtom(rawValue: UInt(request.property)),
          time: XTimestamp(rawValue: UInt(request.time))))
    case SelectionClear:
      let clear = event.xselectionclear
      self = .selectionClear(
        selection: XAtom(rawValue: UInt(clear.selection)),
        window: XWindow(rawValue: UInt(clear.window)),
        time: XTimestamp(rawValue: UInt(clear.time)))
    case CX11.SelectionNotify:
      let notify = event.xselection
      self = .selectionNotify(
        SelectionNotify(
          requestor: XWindow(rawValue: UInt(notify.requestor)),
          selection: XAtom(rawValue: UInt(notify.selection)),
          target: XAtom(rawValue: UInt(notify.target)),
          property: XAtom(rawValue: UInt(notify.property)),
          time: XTimestamp(rawValue: UInt(notify.time))))
    case PropertyNotify:
      let property = event.xproperty
      self = .propertyNotify(
        window: XWindow(rawValue: UInt(property.window)),
        atom: XAtom(rawValue: UInt(property.atom)),
        time: XTimestamp(rawValue: UInt(property.time)), deleted: property.state == PropertyDelete)
    case DestroyNotify:
      self = .destroyNotify(window: XWindow(rawValue: UInt(event.xdestroywindow.window)))
    case CX11.ClientMessage:
      let message = event.xclient
      self = .clientMessage(
        ClientMessage(
          window: XWindow(rawValue: UInt(message.window)),
          type: XAtom(rawValue: UInt(message.message_type)),
          data: (0..<5).map { cx11_client_long(&event, Int32($0)) }))
    case Expose:
      self = .expose(
        window: XWindow(rawValue: UInt(event.xexpose.window)), count: Int(event.xexpose.count))
    case ButtonPress, ButtonRelease:
      let button = event.xbutton
      let pointer = Pointer(
        window: XWindow(rawValue: UInt(button.window)), rootX: Int(button.x_root),
        rootY: Int(button.y_root),
        x: Int(button.x), y: Int(button.y), button: Int(button.button),
        time: XTimestamp(rawValue: UInt(button.time)), state: Modifiers(rawValue: button.state))
      self = type == ButtonPress ? .buttonPress(pointer) : .buttonRelease(pointer)
    case MotionNotify:
      let motion = event.xmotion
      self = .motion(
        Pointer(
          window: XWindow(rawValue: UInt(motion.window)), rootX: Int(motion.x_root),
          rootY: Int(motion.y_root),
          x: Int(motion.x), y: Int(motion.y), button: 0,
          time: XTimestamp(rawValue: UInt(motion.time)),
          state: Modifiers(rawValue: motion.state)))
    case KeyPress:
      let key = event.xkey
      self = .keyPress(
        window: XWindow(rawValue: UInt(key.window)), keycode: key.keycode,
        time: XTimestamp(rawValue: UInt(key.time)))
    case ConfigureNotify:
      let configure = event.xconfigure
      self = .configure(
        window: XWindow(rawValue: UInt(configure.window)), width: Int(configure.width),
        height: Int(configure.height))
    case xfixesEventBase + XFixesSelectionNotify:
      let notify = cx11_xfixes_selection_event(&event)!.pointee
      self = .ownerChange(
        OwnerChange(
          kind: OwnerChange.Kind(rawValue: notify.subtype) ?? .newOwner,
          selection: XAtom(rawValue: UInt(notify.selection)),
          owner: XWindow(rawValue: UInt(notify.owner)),
          time: XTimestamp(rawValue: UInt(notify.timestamp)),
          selectionTime: XTimestamp(rawValue: UInt(notify.selection_timestamp))))
    default:
      self = .unhandled(type: type)
    }
  }
}
