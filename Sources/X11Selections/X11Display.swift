import Dispatch
import FerrySystem
import FoundationEssentials
import Pasteboard
import SelectionBackendCore
import UniformTypeIdentifiers

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A connection to an X display for the selection protocols: own a selection and serve a
/// pasteboard item on it, read any selection in any target, and watch owner changes.
///
/// ```swift
/// let display = try X11Display()                       // $DISPLAY
/// try await display.own(.clipboard, item: item)        // xclip -o now pastes the item
/// let text = try await display.read(.primary, target: "UTF8_STRING")
/// for await change in display.ownerChanges(of: [.clipboard]) { print(change) }
/// ```
///
/// One thread owns the connection and makes every Xlib call; the methods here hand it work
/// and wait for the answer, so they are safe from any task. A peer that misbehaves — never
/// answers, stops mid-transfer, vanishes — costs its own transfer only.
public final class X11Display: Sendable {
  let loop: SelectionLoop

  /// How long a read waits for each step (the owner's answer, each INCR chunk) by default.
  public static let defaultStepTimeout: Duration = .seconds(5)

  /// Opens a display.
  ///
  /// - Parameter name: The display name (`:0`); `nil` for `$DISPLAY`.
  /// - Throws: `X11Error.cannotOpenDisplay(_:)` or `X11Error.missingExtension(_:)`.
  public init(name: String? = nil) throws {
    loop = try SelectionLoop(display: name)
  }

  /// Opens a display whose deadlines (step timeouts, stalled transfers, drag timers) are
  /// measured on `clock` instead of `ContinuousClock`.
  ///
  /// A clock that moves only when told (a test's) reaches a timeout without real waiting;
  /// while a deadline is pending the X thread looks at such a clock every 10 ms.
  ///
  /// - Parameters:
  ///   - name: The display name (`:0`); `nil` for `$DISPLAY`.
  ///   - clock: The clock deadlines are measured on.
  /// - Throws: `X11Error.cannotOpenDisplay(_:)` or `X11Error.missingExtension(_:)`.
  public init<C: Clock>(name: String? = nil, clock: C) throws where C.Duration == Duration {
    loop = try SelectionLoop(display: name, clock: DeadlineClock(clock))
  }

  deinit {
    loop.stop()
  }

  /// Closes the connection; owned selections are released by the server.
  public func close() {
    loop.stop()
  }

  /// Calls `handler` once if the display goes away.
  public func onConnectionLost(_ handler: @escaping @Sendable () -> Void) {
    loop.onConnectionLost(handler)
  }

  /// The largest payload this display's owner sends in one request; larger ones go by INCR
  /// in chunks of this size.
  public var maximumRequestBytes: Int {
    get async throws { try await loop.perform { $0.owner.chunkBytes } }
  }

  // MARK: Owning

  /// Takes `selection` with a real server timestamp and serves `item` on it: `TARGETS` (the
  /// item's types in order as X targets, then `TARGETS`, `TIMESTAMP`, `MULTIPLE`,
  /// `SAVE_TARGETS`), `TIMESTAMP`, `MULTIPLE`, and every data target through the item's
  /// conversions, by INCR when large.
  ///
  /// - Parameters:
  ///   - selection: `CLIPBOARD`, `PRIMARY`, or any selection name.
  ///   - item: What to serve.
  ///   - onlyIfUnowned: Take it only if nobody owns it, and never from an owner that takes it
  ///     meanwhile (a clipboard manager taking over the copy of an owner that went).
  ///   - onLost: Called once when another client takes the selection.
  /// - Returns: The ownership time.
  /// - Throws: `X11Error.ownershipRefused(_:)`, also when `onlyIfUnowned` and it is owned.
  @discardableResult
  public func own(
    _ selection: Selection, item: PasteboardItem, onlyIfUnowned: Bool = false,
    onLost: @escaping @Sendable () -> Void = {}
  ) async throws -> XTimestamp {
    try await loop.perform { session in
      try session.owner.own(
        session.connection.atom(selection), item: item, onlyIfUnowned: onlyIfUnowned, onLost: onLost
      )
    }
  }

  /// Gives `selection` up, if owned.
  public func disown(_ selection: Selection) async {
    try? await loop.perform { session in
      session.owner.disown(session.connection.atom(selection))
      session.connection.flush()
    }
  }

  /// Whether this connection owns `selection`.
  public func owns(_ selection: Selection) async throws -> Bool {
    try await loop.perform { session in
      let atom = session.connection.atom(selection)
      return session.owner.ownerships[atom] != nil
        && session.connection.selectionOwner(atom) == session.window
    }
  }

  /// The window owning `selection`, or `.none`.
  public func owner(of selection: Selection) async throws -> XWindow {
    try await loop.perform { $0.connection.selectionOwner($0.connection.atom(selection)) }
  }

  // MARK: Reading

  /// Asks the owner of `selection` for `target` and reads the reply, following INCR.
  ///
  /// - Parameters:
  ///   - selection: The selection.
  ///   - target: The target atom's name (`UTF8_STRING`, `image/png`, `TARGETS`).
  ///   - sink: Memory, or a descriptor the bytes are written to as they arrive.
  ///   - stepTimeout: How long to wait for the answer and for each INCR chunk.
  ///   - byteLimit: Keep at most this many bytes. A larger reply is not read when its size is
  ///   known up front, and otherwise drained to its end — an owner's transfer, once started,
  ///   is always finished — then the read fails with `X11Error.tooLarge(limit:)`.
  /// - Throws: `X11Error.noOwner(_:)`, `X11Error.refused(selection:target:)`,
  ///   `X11Error.timedOut(_:)`, `X11Error.tooLarge(limit:)` or `X11Error.connectionLost`.
  public func read(
    _ selection: Selection, target: String, into sink: SelectionSink = .memory,
    stepTimeout: Duration = defaultStepTimeout, byteLimit: Int? = nil
  ) async throws -> SelectionData {
    try await loop.read(
      selection, target: target, into: sink, stepTimeout: stepTimeout, byteLimit: byteLimit)
  }

  /// ``read(_:target:into:stepTimeout:byteLimit:)`` for a caller that is not async — a
  /// command-line tool's main thread: the same transfer on the X thread, waited for without
  /// starting a task, so no executor thread is made for one short read.
  ///
  /// - Throws: As ``read(_:target:into:stepTimeout:byteLimit:)``.
  public func readWaiting(
    _ selection: Selection, target: String, into sink: SelectionSink = .memory,
    stepTimeout: Duration = defaultStepTimeout, byteLimit: Int? = nil
  ) throws -> SelectionData {
    let outcome = TrackedMutex<Result<SelectionData, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    let once = Once<SelectionData> { result in
      outcome.withLock { $0 = result }
      done.signal()
    }
    loop.startRead(
      selection, target: target, into: sink, stepTimeout: stepTimeout, byteLimit: byteLimit,
      once: once)
    done.wait()
    return try outcome.withLock { $0! }.get()
  }

  /// ``readWaiting(_:target:into:stepTimeout:byteLimit:)`` on a display opened for this one
  /// read and closed after it, all on the calling thread: for a command that reads once and
  /// exits (`pbpaste` without a broker). No thread is started, so no step waits for another
  /// thread to be scheduled (docs/log/2026-12-02-performance.md, "A paste without a broker").
  ///
  /// - Parameters:
  ///   - name: The display name (`:0`); `nil` for `$DISPLAY`.
  ///   - selection: The selection.
  ///   - target: The target atom's name (`UTF8_STRING`, `image/png`, `TARGETS`).
  ///   - sink: Memory, or a descriptor the bytes are written to as they arrive.
  ///   - stepTimeout: How long to wait for the answer and for each INCR chunk.
  ///   - byteLimit: Keep at most this many bytes, as ``read(_:target:into:stepTimeout:byteLimit:)``.
  ///   - lostInsideXlib: Ends the process when Xlib finds the connection dead inside a call
  ///     (Xlib does not return from that); a loss it reports otherwise fails the read.
  /// - Throws: `X11Error.cannotOpenDisplay(_:)`, or as
  ///   ``read(_:target:into:stepTimeout:byteLimit:)``.
  public static func readOnce(
    display name: String?, _ selection: Selection, target: String,
    into sink: SelectionSink = .memory,
    stepTimeout: Duration = defaultStepTimeout, byteLimit: Int? = nil,
    lostInsideXlib: @escaping @Sendable () -> Never
  ) throws -> SelectionData {
    let loop = try SelectionLoop(onCallingThread: (), lostInsideXlib: lostInsideXlib)
    let outcome = TrackedMutex<Result<SelectionData, any Error>?>(nil)
    let once = Once<SelectionData> { result in outcome.withLock { $0 = result } }
    try loop.runOnCallingThread(
      display: name,
      start: { session in
        let connection = session.connection
        session.reader.start(
          selection: connection.atom(selection), target: connection.atom(target), sink: sink,
          stepTimeout: stepTimeout, budget: byteLimit, once: once)
      },
      until: { outcome.withLock { $0 != nil } })
    return try outcome.withLock { $0 ?? .failure(X11Error.connectionLost) }.get()
  }

  /// The targets the owner of `selection` offers, in its order, each once: the first
  /// `OwnerOffer.maximumTargets` of them, and past those the `OwnerOffer.wellKnownTargets`
  /// only.
  ///
  /// - Throws: As ``read(_:target:into:stepTimeout:byteLimit:)``.
  public func targets(of selection: Selection, stepTimeout: Duration = defaultStepTimeout)
    async throws -> [String]
  {
    try await listedTargets(of: selection, stepTimeout: stepTimeout).names
  }

  /// ``targets(of:stepTimeout:)`` and the window that listed them.
  func listedTargets(of selection: Selection, stepTimeout: Duration) async throws -> (
    names: [String], owner: SelectionOwnership?, isKeptByDesktop: Bool
  ) {
    // 4 bytes an atom; the cap keeps a hostile list from costing more than a glance, and
    // atoms past it are compared, not named, so UTF8_STRING at the end of a long list is kept.
    let reply = try await read(
      selection, target: "TARGETS", stepTimeout: stepTimeout, byteLimit: 1 << 20)
    let listed = try await loop.perform { session -> ([String], Bool) in
      let wellKnown = Set(session.connection.atoms(OwnerOffer.wellKnownTargets))
      var seen = Set<XAtom>()
      var atoms: [XAtom] = []
      reply.data.withUnsafeBytes { raw in
        for index in 0..<(reply.data.count / 4) {
          let atom = XAtom(rawValue: UInt(raw.load(fromByteOffset: index * 4, as: UInt32.self)))
          guard atom != .none,
            atoms.count < OwnerOffer.maximumTargets || wellKnown.contains(atom)
          else { continue }
          if seen.insert(atom).inserted { atoms.append(atom) }
        }
      }
      let names = session.connection.names(atoms).compactMap { $0 }
      // Mutter's own window lists a Wayland program's types reversed; its clipboard
      // manager's restore of a copy whose owner went is one type on that window.
      guard let owner = reply.owner, session.isMutterSelectionWindow(owner.window) else {
        return (names, false)
      }
      return (MutterSelectionBridge.ownerOrder(names), MutterSelectionBridge.isKeptCopy(names))
    }
    return (listed.0, reply.owner, listed.1)
  }

  /// Text from `selection`, decoded to UTF-8: `UTF8_STRING`, else `COMPOUND_TEXT`, else
  /// Latin-1 `STRING`, as the owner offers them.
  ///
  /// - Throws: As ``read(_:target:into:stepTimeout:byteLimit:)``.
  public func readText(_ selection: Selection, stepTimeout: Duration = defaultStepTimeout)
    async throws -> String
  {
    for target in ["UTF8_STRING", "COMPOUND_TEXT", "STRING"] {
      let reply: SelectionData
      do {
        reply = try await read(selection, target: target, stepTimeout: stepTimeout)
      } catch X11Error.refused {
        continue  // Only a refusal means "try the next encoding"; a timeout or a lost owner ends the read.
      }
      return try await decodeText(reply)
    }
    throw X11Error.refused(selection: selection, target: "UTF8_STRING")
  }

  /// Decodes a text reply by its type: UTF-8, Latin-1 or compound text.
  public func decodeText(_ reply: SelectionData) async throws -> String {
    try await loop.decodeText(reply)
  }

  // MARK: Watching

  /// Owner changes of `selections` (new owner, owner window destroyed, owner client closed),
  /// as XFixes reports them, this process's own included.
  public func ownerChanges(of selections: [Selection] = [.clipboard, .primary]) -> AsyncStream<
    SelectionOwnerChange
  > {
    let (stream, continuation) = AsyncStream<SelectionOwnerChange>.makeStream()
    let id = UUID()
    loop.submit { session in
      let atoms = Set(selections.map { session.connection.atom($0) })
      atoms.forEach(session.watch)
      session.ownerWatchers[id] = (atoms, continuation)
      session.connection.flush()
    }
    let registration = loop.onConnectionLost { continuation.finish() }
    let loop = self.loop
    continuation.onTermination = { _ in
      if let registration { loop.forget(registration) }
      loop.submit { session in session.ownerWatchers[id] = nil }
    }
    return stream
  }
}
