import Dispatch
import FoundationEssentials
import SelectionBackendCore
import UniformTypeIdentifiers

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Copies through the broker when one runs, else through a detached selection server, else
/// — over SSH, with neither — through the terminal (OSC 52).
public enum Copier {
  /// Performs `request` and returns once the copy can be pasted.
  ///
  /// - Throws: ``CommandFailure`` with the status of what went wrong.
  public static func copy(_ request: CopyRequest) throws {
    try SelectionName.checkPasteboard(request.pasteboard)
    let terminal = try TerminalClipboard.mode()
    // --osc52 (the request's) wins over FERRY_OSC52.
    if request.throughTerminal || terminal == .always { return try copyThroughTerminal(request) }
    if try BrokerConnector.copy(request) { return }
    let display = environmentVariable("DISPLAY") ?? ""
    if !DisplayServer.isAvailable, terminal == .auto, request.pasteboard == "general",
      TerminalClipboard.hasTerminal
    {
      return try copyThroughTerminal(request)
    }
    guard let selection = SelectionName.forPasteboard(request.pasteboard) else {
      throw CommandFailure(
        "the \(request.pasteboard) pasteboard lives in the broker, and none is running (start one with `ferry daemon`)",
        status: .noDisplayNoBroker)
    }
    guard DisplayServer.isAvailable else {
      throw CommandFailure(
        "\(DisplayServer.noDisplay) and no broker is running", status: .noDisplayNoBroker)
    }
    try DetachedSelectionServer.spawn(
      selection: selection, display: display,
      representations: request.representations.map {
        (TypeArgument.type(forIdentifier: $0.type), $0.data)
      }, concealed: request.concealed)
  }
}

extension Copier {
  /// Sends the copy's first text representation to the terminal's clipboard.
  static func copyThroughTerminal(_ request: CopyRequest) throws {
    guard request.pasteboard == "general" else {
      throw CommandFailure(
        "the terminal has one clipboard; OSC 52 cannot copy to the \(request.pasteboard) pasteboard",
        status: .usage)
    }
    let text = request.representations.first {
      TypeArgument.type(forIdentifier: $0.type).conforms(to: .text)
    }
    guard let text else {
      let types = request.representations.map(\.type).joined(separator: ", ")
      throw CommandFailure(
        "OSC 52 carries text, and the copy is \(types); nothing was sent to the terminal",
        status: .badInput)
    }
    try TerminalClipboard.copy(text.data)
  }
}

/// Pastes through the broker when one runs, else straight from the X selection.
public enum Paster {
  /// Writes the first available preferred type to `descriptor`.
  ///
  /// - Throws: ``CommandFailure``.
  public static func paste(_ request: PasteRequest, to descriptor: Int32) throws {
    try validate(request)
    if try BrokerConnector.paste(request, to: descriptor) { return }
    let (selection, display) = try directSource(request)
    // Plain text, the common paste, is asked for at once, as xsel and wl-paste do: no type
    // tables, no task. Any other answer takes the general way.
    if request.preferences.first == TypeArgument.textIdentifier {
      // A compositor that cannot be used gives way to its Xwayland (`nil`: GNOME's Mutter).
      let wayland =
        DisplayServer.isWayland
        ? try DisplayServer.pasteWaylandText(
          selection, stepTimeout: request.timeout, to: descriptor) : nil
      let pasted =
        try wayland
        ?? DisplayServer.pasteUTF8Text(
          selection, displayName: display, stepTimeout: request.timeout, to: descriptor)
      if pasted { return }
    }
    let direct = try DirectSelection(
      selection: selection, displayName: display, stepTimeout: request.timeout)
    defer { direct.close() }  // before the process exits, not whenever the task lets it go
    let preferences = request.preferences.map(TypeArgument.type(forIdentifier:))
    try runBlocking { _ = try await direct.paste(preferences: preferences, to: descriptor) }
  }

  /// The types of the copy, in order.
  public static func types(_ request: PasteRequest) throws -> [String] {
    try validate(request)
    if let types = try BrokerConnector.types(request) { return types }
    let direct = try directSelection(request)
    defer { direct.close() }  // before the process exits, not whenever the task lets it go
    return try runBlocking {
      return direct.item(try await direct.offer()).types.map(\.identifier)
    }
  }

  private static func validate(_ request: PasteRequest) throws {
    try SelectionName.checkPasteboard(request.pasteboard)
  }

  private static func directSelection(_ request: PasteRequest) throws -> DirectSelection {
    let (selection, display) = try directSource(request)
    return try DirectSelection(
      selection: selection, displayName: display, stepTimeout: request.timeout)
  }

  /// The selection a paste without a broker reads, and the display (`$DISPLAY`).
  private static func directSource(_ request: PasteRequest) throws -> (SelectionRole, String?) {
    guard let selection = SelectionName.forPasteboard(request.pasteboard) else {
      throw CommandFailure(
        "the \(request.pasteboard) pasteboard lives in the broker, and none is running (start one with `ferry daemon`)",
        status: .noDisplayNoBroker)
    }
    let display = environmentVariable("DISPLAY")
    if !DisplayServer.isAvailable, try TerminalClipboard.mode() != .never,
      TerminalClipboard.hasTerminal
    {
      // Over SSH pbcopy copies through the terminal; the way back (an OSC 52 query) is
      // refused by most terminals, as it would let any program read the clipboard.
      throw CommandFailure(
        "no display and no broker; pbpaste does not ask the terminal for its clipboard (most terminals refuse OSC 52 reads)",
        status: .noDisplayNoBroker)
    }
    return (selection, display)
  }
}

/// Runs async work from a synchronous command and waits for it.
func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
  let box = LockedBox<Result<T, any Error>?>(nil)
  let done = DispatchSemaphore(value: 0)
  Task {
    do { box.set(.success(try await body())) } catch { box.set(.failure(error)) }
    done.signal()
  }
  done.wait()
  return try box.get()!.get()
}
