import FerrySystem
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The manager side of the freedesktop clipboard-manager protocol: owns `CLIPBOARD_MANAGER`
/// and answers `SAVE_TARGETS`, so what an application copied survives its exit.
///
/// https://freedesktop.org/wiki/ClipboardManager/ and ICCCM §2.8 (manager selections).
///
/// On `SAVE_TARGETS` the requestor's property lists the targets to save; no property (GTK 3
/// sends `None`) or a missing one means "all of `TARGETS` but the meta targets". The copy
/// itself — reading each target from the exiting owner, then taking `CLIPBOARD` — is the
/// broker's `save` closure; the reply goes out only when it has finished, because the
/// application exits on it.
final class ClipboardManagerService {
  unowned let session: X11Session
  private(set) var time: XTimestamp?
  private var save: (@Sendable ([String]?) async -> Bool)?
  private var onLost: (@Sendable () -> Void)?
  private var busy = false

  init(session: X11Session) {
    self.session = session
  }

  /// Takes `CLIPBOARD_MANAGER` unless another manager holds it, and announces it with a
  /// `MANAGER` client message on the root window.
  ///
  /// - Returns: Whether this process is now the manager.
  func acquire(
    save: @escaping @Sendable ([String]?) async -> Bool, onLost: @escaping @Sendable () -> Void
  ) -> Bool {
    let connection = session.connection
    let selection = connection.atoms[.clipboardManager]
    let current = connection.selectionOwner(selection)
    guard current == .none || current == session.window else { return false }
    let time = session.serverTime()
    connection.setSelectionOwner(selection, session.window, time: time)
    guard connection.selectionOwner(selection) == session.window else { return false }
    self.time = time
    self.save = save
    self.onLost = onLost
    connection.sendClientMessage(
      to: connection.root, type: connection.atoms[.manager],
      data: [
        Int(bitPattern: time.rawValue), Int(bitPattern: selection.rawValue),
        Int(bitPattern: session.window.rawValue), 0, 0,
      ],
      mask: .structureNotify)
    connection.flush()
    return true
  }

  /// Whether `request` is for `CLIPBOARD_MANAGER`; if so it is answered here.
  func handle(_ request: X11Event.SelectionRequest) -> Bool {
    let connection = session.connection
    let atoms = connection.atoms
    guard request.selection == atoms[.clipboardManager] else { return false }
    let property = request.property == .none ? request.target : request.property
    guard let time, request.time == .current || !(request.time < time) else {
      reply(request, property: .none)
      return true
    }
    switch request.target {
    case atoms[.targets]:
      connection.setProperty(
        of: request.requestor, property, type: .atom,
        values: [atoms[.targets], atoms[.timestamp], atoms[.saveTargets]].map(\.rawValue))
      reply(request, property: property)
    case atoms[.timestamp]:
      connection.setProperty(
        of: request.requestor, property, type: .integer, values: [time.rawValue])
      reply(request, property: property)
    case atoms[.saveTargets]:
      startSave(request)
    default:
      reply(request, property: .none)
    }
    return true
  }

  private func startSave(_ request: X11Event.SelectionRequest) {
    let connection = session.connection
    guard !busy, let save else {
      reply(request, property: .none)
      return
    }
    var targets: [String]?
    if request.property != .none,
      let list = connection.property(of: request.requestor, request.property, delete: false),
      list.type == .atom, list.itemCount > 0
    {
      targets = connection.names(list.values.map(XAtom.init(rawValue:))).compactMap { $0 }
    }
    busy = true
    let requested = targets
    let loop = session.loop
    Task(executorPreference: ProductionExecutor.shared) {
      let saved = await save(requested)
      loop.submit { session in
        session.manager.finishSave(request, saved: saved)
      }
    }
  }

  private func finishSave(_ request: X11Event.SelectionRequest, saved: Bool) {
    busy = false
    let connection = session.connection
    // The reply property: the request's, or SAVE_TARGETS for a requestor that named none;
    // it holds a zero-length NULL (GTK's convention).
    let property = request.property == .none ? connection.atoms[.saveTargets] : request.property
    if saved {
      connection.setProperty(
        of: request.requestor, property, type: connection.atoms[.null], values: [])
    }
    reply(request, property: saved ? property : .none)
    _ = connection.takeErrors()
  }

  /// Another manager took `CLIPBOARD_MANAGER`.
  func handleClear(time: XTimestamp) {
    guard let own = self.time, time == .current || !(time < own) else { return }
    self.time = nil
    save = nil
    onLost?()
    onLost = nil
  }

  private func reply(_ request: X11Event.SelectionRequest, property: XAtom) {
    session.connection.sendSelectionNotify(
      requestor: request.requestor, selection: request.selection, target: request.target,
      property: property, time: request.time)
    session.connection.flush()
  }
}
