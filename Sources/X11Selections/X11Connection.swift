internal import CX11
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A connection to an X display, used by exactly one thread: the thread of the
/// ``X11EventLoop`` that opened it. Not `Sendable` on purpose.
///
/// Every Xlib call of the module goes through here, so protocol errors are collected in one
/// place and the rest of the module never sees a `Display *`.
///
/// `package` for `DragWindows`, whose windows draw with Xlib on this connection, on its thread.
package final class X11Connection {
  /// The Xlib `Display *`, for drawing calls on the X thread.
  package let display: OpaquePointer
  /// The root window of the default screen.
  package let root: XWindow
  let fileDescriptor: Int32
  /// The largest property payload one request may carry, in bytes: about 16 MiB with
  /// BIG-REQUESTS, which every server today has.
  let maximumRequestBytes: Int
  let atoms: Atoms
  /// The first event number of the XFixes extension.
  let xfixesEventBase: Int32
  private var atomNames: [XAtom: String] = [:]
  private var atomsByName: [String: XAtom] = [:]

  /// Opens `name` (or `$DISPLAY`) and interns the protocol atoms in one round trip.
  ///
  /// - Throws: ``X11Error/cannotOpenDisplay(_:)`` or ``X11Error/missingExtension(_:)``.
  init(name: String?) throws {
    ErrorTrap.install()
    guard let display = XOpenDisplay(name) else {
      throw X11Error.cannotOpenDisplay(name ?? ProcessInfo.processInfo.environment["DISPLAY"] ?? "")
    }
    ErrorTrap.forget(display)
    self.display = display
    root = XWindow(rawValue: UInt(XDefaultRootWindow(display)))
    fileDescriptor = XConnectionNumber(display)
    let extended = XExtendedMaxRequestSize(display)
    let words = extended > 0 ? extended : XMaxRequestSize(display)
    // A ChangeProperty request has a 24-byte header; keep well clear of it. The owner sends
    // less than this (`SelectionOwnerService.defaultChunkBytes`).
    maximumRequestBytes = Int(words) * 4 - 1024
    var eventBase: Int32 = 0
    var errorBase: Int32 = 0
    guard XFixesQueryExtension(display, &eventBase, &errorBase) != 0 else {
      XCloseDisplay(display)
      throw X11Error.missingExtension("XFIXES")
    }
    var major: Int32 = 5
    var minor: Int32 = 0
    XFixesQueryVersion(display, &major, &minor)
    xfixesEventBase = eventBase
    var interned = [Atom](repeating: 0, count: Atoms.names.count)
    var cNames = Atoms.names.map { strdup($0) }
    defer { cNames.forEach { free($0) } }
    XInternAtoms(display, &cNames, Int32(cNames.count), 0, &interned)
    atoms = Atoms(interned.map { XAtom(rawValue: UInt($0)) })
    for (name, atom) in zip(Atoms.names, interned) {
      atomNames[XAtom(rawValue: UInt(atom))] = name
      atomsByName[name] = XAtom(rawValue: UInt(atom))
    }
  }

  deinit {
    if !ErrorTrap.isLost(display) { XCloseDisplay(display) }
  }

  // MARK: Atoms

  /// The atom for `name`, interned if needed (one round trip the first time).
  package func atom(_ name: String) -> XAtom {
    if let known = atomsByName[name] { return known }
    let atom = XAtom(rawValue: UInt(XInternAtom(display, name, 0)))
    atomsByName[name] = atom
    atomNames[atom] = name
    return atom
  }

  /// The atoms for `names`, interning those not yet known in one round trip.
  package func atoms(_ names: [String]) -> [XAtom] {
    let unknown = Array(Set(names.filter { atomsByName[$0] == nil }))
    if !unknown.isEmpty {
      var interned = [Atom](repeating: 0, count: unknown.count)
      var cNames = unknown.map { strdup($0) }
      defer { cNames.forEach { free($0) } }
      XInternAtoms(display, &cNames, Int32(cNames.count), 0, &interned)
      for (name, atom) in zip(unknown, interned) {
        atomsByName[name] = XAtom(rawValue: UInt(atom))
        atomNames[XAtom(rawValue: UInt(atom))] = name
      }
    }
    return names.map { atomsByName[$0]! }
  }

  /// The names of `atoms`, fetching unknown ones in one round trip; `nil` for invalid atoms.
  func names(_ atoms: [XAtom]) -> [String?] {
    let unknown = Array(Set(atoms.filter { atomNames[$0] == nil && $0 != .none }))
    if !unknown.isEmpty {
      var raw = unknown.map { Atom($0.rawValue) }
      var names = [UnsafeMutablePointer<CChar>?](repeating: nil, count: unknown.count)
      if XGetAtomNames(display, &raw, Int32(raw.count), &names) != 0 {
        for (atom, name) in zip(unknown, names) {
          if let name {
            atomNames[atom] = String(cString: name)
            atomsByName[String(cString: name)] = atom
            XFree(name)
          }
        }
      } else {
        // One bad atom fails the batch: ask one at a time.
        _ = takeErrors()
        for atom in unknown {
          if let name = XGetAtomName(display, Atom(atom.rawValue)) {
            atomNames[atom] = String(cString: name)
            XFree(name)
          }
        }
        _ = takeErrors()
      }
    }
    return atoms.map { atomNames[$0] }
  }

  /// The name of `atom`.
  func name(_ atom: XAtom) -> String? { names([atom])[0] }

  // MARK: Windows

  /// A 1×1 unmapped window that receives property changes: the owner of selections and the
  /// target of conversions.
  func createUtilityWindow() -> XWindow {
    let window = XCreateSimpleWindow(display, Window(root.rawValue), -10, -10, 1, 1, 0, 0, 0)
    XSelectInput(display, window, PropertyChangeMask | StructureNotifyMask)
    return XWindow(rawValue: UInt(window))
  }

  /// Selects events on a window of another client (per-client, so it does not disturb theirs).
  func selectInput(_ window: XWindow, mask: XWindow.EventMask) {
    XSelectInput(display, Window(window.rawValue), mask.rawValue)
  }

  /// Destroys a window of this connection.
  package func destroyWindow(_ window: XWindow) {
    XDestroyWindow(display, Window(window.rawValue))
  }

  // MARK: Properties

  /// A property's value as the server returned it.
  struct Property {
    var type: XAtom
    var format: Int32
    /// The bytes: format-8 data as is, format-16 as shorts, format-32 as 32-bit values.
    var bytes: Data
    var itemCount: Int

    /// Format-32 items as numbers (atoms, windows, integers).
    var values: [UInt] {
      guard format == 32 else { return [] }
      return bytes.withUnsafeBytes { raw in
        (0..<itemCount).map { UInt(raw.load(fromByteOffset: $0 * 4, as: UInt32.self)) }
      }
    }
  }

  /// A property's type, format and size in bytes, read without its data; `nil` when it does
  /// not exist. Lets a reader decide before the bytes cross the connection.
  func propertyShape(of window: XWindow, _ property: XAtom) -> (type: XAtom, format: Int32, byteCount: Int)? {
    getProperty(of: window, property, length: 0, delete: false) { type, format, _, after, _ in
      (XAtom(rawValue: UInt(type)), format, Int(after))
    }
  }

  /// Calls `XGetWindowProperty` for up to `length` 32-bit units and hands `body` what it
  /// returned (type, format, items, bytes after, data), freeing the data afterwards; `nil`
  /// when the property does not exist.
  private func getProperty<T>(
    of window: XWindow, _ property: XAtom, length: Int, delete: Bool,
    _ body: (Atom, Int32, UInt, UInt, UnsafeMutablePointer<UInt8>?) -> T
  ) -> T? {
    var type: Atom = 0
    var format: Int32 = 0
    var count: UInt = 0
    var after: UInt = 0
    var data: UnsafeMutablePointer<UInt8>?
    let status = XGetWindowProperty(
      display, Window(window.rawValue), Atom(property.rawValue), 0, length, delete ? 1 : 0,
      Atom(AnyPropertyType), &type, &format, &count, &after, &data)
    defer { if let data { XFree(data) } }
    guard status == Success, type != 0 else { return nil }
    return body(type, format, count, after, data)
  }

  /// Reads a whole property, deleting it when `delete` is set; `nil` when it does not exist.
  func property(of window: XWindow, _ property: XAtom, delete: Bool) -> Property? {
    getProperty(of: window, property, length: 0x1fff_ffff, delete: delete) { type, format, count, _, data in
    var bytes = Data()
    if let data {
      switch format {
      case 8: bytes = Data(bytes: data, count: Int(count))
      case 16:
        let shorts = UnsafeRawPointer(data).assumingMemoryBound(to: CShort.self)
        bytes.reserveCapacity(Int(count) * 2)
        for index in 0..<Int(count) { withUnsafeBytes(of: UInt16(bitPattern: shorts[index])) { bytes.append(contentsOf: $0) } }
      default:
        // Format-32 data arrive as C longs.
        let longs = UnsafeRawPointer(data).assumingMemoryBound(to: CLong.self)
        bytes.reserveCapacity(Int(count) * 4)
        for index in 0..<Int(count) { withUnsafeBytes(of: UInt32(truncatingIfNeeded: longs[index])) { bytes.append(contentsOf: $0) } }
      }
    }
      return Property(type: XAtom(rawValue: UInt(type)), format: format, bytes: bytes, itemCount: Int(count))
    }
  }

  /// Replaces (or appends to) a property with format-8 bytes.
  package func setProperty(
    of window: XWindow, _ property: XAtom, type: XAtom, bytes: UnsafeRawBufferPointer, append: Bool = false
  ) {
    let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
    XChangeProperty(
      display, Window(window.rawValue), Atom(property.rawValue), Atom(type.rawValue), 8,
      append ? PropModeAppend : PropModeReplace, base, Int32(bytes.count))
  }

  /// Replaces a property with format-32 values (atoms, windows, integers), written as C longs.
  package func setProperty(of window: XWindow, _ property: XAtom, type: XAtom, values: [UInt]) {
    var longs = values.map { CLong(bitPattern: $0) }
    _ = longs.withUnsafeMutableBytes { raw in
      XChangeProperty(
        display, Window(window.rawValue), Atom(property.rawValue), Atom(type.rawValue), 32,
        PropModeReplace, raw.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(values.count))
    }
  }

  func deleteProperty(of window: XWindow, _ property: XAtom) {
    XDeleteProperty(display, Window(window.rawValue), Atom(property.rawValue))
  }

  // MARK: Selections

  func setSelectionOwner(_ selection: XAtom, _ window: XWindow, time: XTimestamp) {
    XSetSelectionOwner(display, Atom(selection.rawValue), Window(window.rawValue), Time(time.rawValue))
  }

  func selectionOwner(_ selection: XAtom) -> XWindow {
    XWindow(rawValue: UInt(XGetSelectionOwner(display, Atom(selection.rawValue))))
  }

  func convertSelection(
    _ selection: XAtom, target: XAtom, property: XAtom, requestor: XWindow, time: XTimestamp
  ) {
    XConvertSelection(
      display, Atom(selection.rawValue), Atom(target.rawValue), Atom(property.rawValue),
      Window(requestor.rawValue), Time(time.rawValue))
  }

  /// Answers a `SelectionRequest`; `property == .none` refuses it.
  func sendSelectionNotify(
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

  /// Sends a format-32 client message to `window`.
  func sendClientMessage(
    to window: XWindow, about subject: XWindow? = nil, type: XAtom, data: [Int], mask: XWindow.EventMask = []
  ) {
    var event = XEvent()
    event.xclient.type = ClientMessage
    event.xclient.window = Window((subject ?? window).rawValue)
    event.xclient.message_type = Atom(type.rawValue)
    event.xclient.format = 32
    for (index, value) in data.prefix(5).enumerated() { cx11_set_client_long(&event, Int32(index), value) }
    XSendEvent(display, Window(window.rawValue), 0, mask.rawValue, &event)
  }

  /// Watches a selection's owner changes through XFixes.
  func watchSelection(_ selection: XAtom) {
    let mask = UInt(XFixesSetSelectionOwnerNotifyMask | XFixesSelectionWindowDestroyNotifyMask
      | XFixesSelectionClientCloseNotifyMask)
    XFixesSelectSelectionInput(display, Window(root.rawValue), Atom(selection.rawValue), mask)
  }

  // MARK: Flow

  /// Sends the requests made so far.
  package func flush() { XFlush(display) }

  /// Waits until the server has handled every request, and returns the errors they raised.
  @discardableResult
  func sync() -> [ErrorTrap.Captured] {
    XSync(display, 0)
    return takeErrors()
  }

  func takeErrors() -> [ErrorTrap.Captured] { ErrorTrap.take(for: display) }

  /// Waits until the server has handled every request made so far, dropping the errors
  /// they raised: for requests nothing checks, such as a new window's.
  package func roundTrip() { sync() }

  /// The serial number the next request will get: errors with this serial or later belong to
  /// requests made from now on.
  var nextRequestSerial: UInt { UInt(XNextRequest(display)) }

  /// Events already read from the socket or waiting in it, without blocking.
  func pendingEvents() -> Int32 { XPending(display) }

  /// The next event; call only when ``pendingEvents()`` is positive.
  func nextEvent() -> XEvent {
    var event = XEvent()
    XNextEvent(display, &event)
    return event
  }

  /// The current server time: a zero-length append to a property of `window` makes the
  /// server send a `PropertyNotify` carrying its time (ICCCM §2.1). `window` must select
  /// `PropertyChangeMask`.
  func serverTime(using window: XWindow) -> XTimestamp? {
    let empty = [UInt8]()
    empty.withUnsafeBytes {
      setProperty(of: window, atoms.ferryTimestamp, type: .string, bytes: $0, append: true)
    }
    XSync(display, 0)
    var others: [XEvent] = []
    defer {
      for var event in others.reversed() { XPutBackEvent(display, &event) }
    }
    var event = XEvent()
    while XCheckTypedWindowEvent(display, Window(window.rawValue), PropertyNotify, &event) != 0 {
      if event.xproperty.atom == Atom(atoms.ferryTimestamp.rawValue) {
        return XTimestamp(rawValue: UInt(event.xproperty.time))
      }
      others.append(event)
    }
    return nil
  }
}
