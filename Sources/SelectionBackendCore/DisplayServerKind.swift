/// One kind of display server Ferry bridges — X11, Wayland, a test's embedded fake: a row of
/// the table the broker and the command-line tools consult (`DisplayServerTable.standard` in
/// the `DisplayServers` module).
///
/// A row says what the kind needs from the environment, how it connects, and what it is
/// called in `ferry status` and the log. Adding a display server is a module with its
/// ``SelectionBackend`` plus one row; the broker, its status and the wire format name no kind.
///
/// ```swift
/// let embedded = DisplayServerKind(
///   name: "Embedded", environmentVariable: "FERRY_EMBEDDED_DISPLAY", protocolName: "in-process"
/// ) { display, _ in EmbeddedSelectionBackend(clock: ContinuousClock()) }
/// ```
public struct DisplayServerKind: Sendable {
  /// How the broker opens a display server of this kind.
  public struct Options: Sendable {
    /// How long a reader of what Ferry owns may take over each step of a transfer.
    public var servingStepTimeout: Duration

    /// Creates options.
    public init(servingStepTimeout: Duration = .seconds(5)) {
      self.servingStepTimeout = servingStepTimeout
    }
  }

  /// Its name in status and the log: `X11`, `Wayland`.
  public var name: String
  /// The environment variable that names a display of this kind (`DISPLAY`); a display is
  /// bridged when it is set and not empty.
  public var environmentVariable: String
  /// What the backend speaks, for status: `ICCCM selections`, `data-control`.
  public var protocolName: String
  /// Whether a broker whose environment names such a display refuses to start when it cannot
  /// be opened (X11, as it always did), rather than saying so in one line and going on
  /// (Wayland: a compositor without data-control).
  public var isRequired: Bool
  /// Opens the display named `display`.
  public var connect:
    @Sendable (_ display: String, _ options: Options) async throws(BackendError) ->
      any SelectionBackend

  /// Creates a row.
  public init(
    name: String, environmentVariable: String, protocolName: String, isRequired: Bool = false,
    connect:
      @escaping @Sendable (_ display: String, _ options: Options) async throws(BackendError) ->
      any SelectionBackend
  ) {
    self.name = name
    self.environmentVariable = environmentVariable
    self.protocolName = protocolName
    self.isRequired = isRequired
    self.connect = connect
  }

  /// The display `environment` names for this kind, or `nil` when it names none.
  public func display(in environment: [String: String]) -> String? {
    guard let name = environment[environmentVariable], !name.isEmpty else { return nil }
    return name
  }
}
