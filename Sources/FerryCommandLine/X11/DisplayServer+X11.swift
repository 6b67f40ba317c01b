import SelectionBackendCore
import X11Selections

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension DisplayServer {
  /// Connects to the X display `displayName` (`nil`: `$DISPLAY`).
  ///
  /// - Throws: `BackendError.cannotConnect(_:)`.
  static func connectX11(displayName: String?) throws(BackendError) -> any SelectionBackend {
    try X11SelectionBackend(displayName: displayName)
  }

  /// Writes the owner's UTF-8 text to `descriptor`, asked for without looking at its
  /// targets first, on a connection opened for this read and all on this thread (no task and
  /// no X thread are started): the common paste, as fast as xsel's.
  ///
  /// - Returns: `false`, having written nothing, when the owner refuses `UTF8_STRING`.
  /// - Throws: ``CommandFailure``: status 1 when nobody owns the selection, 3 when there is
  ///   no display, 4 on a timeout.
  static func pasteUTF8Text(
    _ role: SelectionRole, displayName: String?, stepTimeout: Duration, to descriptor: Int32
  ) throws -> Bool {
    do {
      _ = try X11Display.readOnce(
        display: displayName, role.selection, target: "UTF8_STRING",
        into: .fileDescriptor(descriptor),
        stepTimeout: stepTimeout,
        lostInsideXlib: {
          let program =
            CommandLine.arguments.first?.split(separator: "/").last.map(String.init) ?? "pbpaste"
          reportError(program, "the connection to the X display was lost")
          exit(ExitStatus.io.rawValue)
        })
      return true
    } catch {
      let failure = BackendError(error, role: role)
      if case .refused = failure { return false }
      throw DirectSelection.failure(failure, selection: role)
    }
  }
}
