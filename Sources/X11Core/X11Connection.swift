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
/// Every Xlib call of Ferry goes through here and its extensions (atoms, properties,
/// selections, events, windows, drawing, input), as typed Swift: protocol errors are
/// collected in one place and no other module sees a `Display *`.
///
/// ```swift
/// let owner = try await display.xThread.perform { session in
///   session.connection.selectionOwner(session.connection.atoms[.clipboard])  // on the X thread
/// }
/// ```
public final class X11Connection {
  /// The Xlib `Display *`.
  let display: OpaquePointer
  /// The root window of the default screen.
  public let root: XWindow
  /// The connection's socket, which the event loop polls.
  let fileDescriptor: Int32
  /// The largest property payload one request may carry, in bytes: about 16 MiB with
  /// BIG-REQUESTS, which every server today has.
  public let maximumRequestBytes: Int
  /// The protocol atoms, interned when the connection opened.
  public let atoms: Atoms
  /// The first event number of the XFixes extension.
  let xfixesEventBase: Int32
  /// Names of the atoms known so far, both ways.
  var atomNames: [XAtom: String] = [:]
  var atomsByName: [String: XAtom] = [:]
  /// What runs when Xlib finds the connection dead inside a call (``onLostInsideXlib(_:)``).
  private var lostInsideXlib: LostInsideXlibHandler?

  /// Opens `name` (or `$DISPLAY`) and interns ``Atoms`` in one round trip.
  ///
  /// - Parameters:
  ///   - name: The display, `nil` for `$DISPLAY`.
  ///   - lost: What runs when Xlib finds the connection dead inside a call (it must not
  ///     return) — set while the connection opens and right after, before its first round
  ///     trip: a server that closes the connection after its setup reply made Xlib's default
  ///     handler exit the whole process (issue 36).
  /// - Throws: ``X11Error/cannotOpenDisplay(_:)`` or ``X11Error/missingExtension(_:)``.
  public init(name: String?, lost: (() -> Never)? = nil) throws {
    ErrorTrap.install()
    guard let display = ErrorTrap.whileOpening(lost, { XOpenDisplay(name) }) else {
      throw X11Error.cannotOpenDisplay(name ?? ProcessInfo.processInfo.environment["DISPLAY"] ?? "")
    }
    ErrorTrap.forget(display)
    self.display = display
    if let lost { lostInsideXlib = Self.setLostHandler(lost, on: display) }
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
    let names = Atoms.Name.allCases.map(\.rawValue)
    let interned = Self.intern(names, on: display)
    atoms = Atoms(interned)
    for (name, atom) in zip(names, interned) {
      atomNames[atom] = name
      atomsByName[name] = atom
    }
  }

  deinit {
    if !ErrorTrap.isLost(display) { XCloseDisplay(display) }
  }

  /// Interns `names` in one round trip (`XInternAtoms`).
  static func intern(_ names: [String], on display: OpaquePointer) -> [XAtom] {
    var interned = [Atom](repeating: 0, count: names.count)
    var cNames = names.map { strdup($0) }
    defer { cNames.forEach { free($0) } }
    XInternAtoms(display, &cNames, Int32(cNames.count), 0, &interned)
    return interned.map { XAtom(rawValue: UInt($0)) }
  }

  // MARK: Flow

  /// Sends the requests made so far.
  public func flush() { XFlush(display) }

  /// Waits until the server has handled every request, and returns the errors they raised.
  @discardableResult
  public func sync() -> [XErrorReport] {
    XSync(display, 0)
    return takeErrors()
  }

  /// Removes and returns the errors the server reported so far on this connection.
  public func takeErrors() -> [XErrorReport] { ErrorTrap.take(for: display) }

  /// Waits until the server has handled every request made so far, dropping the errors
  /// they raised: for requests nothing checks, such as a new window's.
  public func roundTrip() { sync() }

  /// The serial number the next request will get: errors with this serial or later belong to
  /// requests made from now on.
  public var nextRequestSerial: UInt { UInt(XNextRequest(display)) }

  // MARK: Loss

  /// Marks the connection lost: it is not closed again, and ``isLost`` says so.
  func markLost() { ErrorTrap.markLost(display) }

  /// Whether the connection was found lost.
  var isLost: Bool { ErrorTrap.isLost(display) }

  /// Sets what runs when Xlib finds the connection dead inside a call, on the thread of
  /// that call. `handler` must not return: Xlib exits the process when it does.
  func onLostInsideXlib(_ handler: @escaping () -> Never) {
    lostInsideXlib = Self.setLostHandler(handler, on: display)
  }

  /// Makes `handler` Xlib's exit handler of `display`; the box returned must be kept as long
  /// as the display is open.
  private static func setLostHandler(_ handler: @escaping () -> Never, on display: OpaquePointer)
    -> LostInsideXlibHandler
  {
    let box = LostInsideXlibHandler(handler)
    XSetIOErrorExitHandler(
      display,
      { display, context in
        if let display { ErrorTrap.markLost(display) }
        guard let context else { pthread_exit(nil) }
        Unmanaged<LostInsideXlibHandler>.fromOpaque(context).takeUnretainedValue().handler()
      }, Unmanaged.passUnretained(box).toOpaque())
    return box
  }
}

/// The handler of ``X11Connection/onLostInsideXlib(_:)``, as a pointer Xlib can hold.
private final class LostInsideXlibHandler {
  let handler: () -> Never
  init(_ handler: @escaping () -> Never) { self.handler = handler }
}
