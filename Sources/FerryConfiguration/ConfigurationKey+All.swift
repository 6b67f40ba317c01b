extension ConfigurationKey {
  /// Every key, in the order `ferry config` prints them and the template lists them.
  public static let all: [ConfigurationKey] = [
    captureLimit, logLevel,
    historyEnabled, historyPrimary, historyEntries, historySize, historyItemSize, historyIgnore,
    captureTimeout, serveTimeout, imagesPixelLimit,
    syncHosts, syncMaxSize, syncExclude, syncPrimary,
  ]

  /// The key named `name` in the file.
  public static func named(_ name: String) -> ConfigurationKey? { all.first { $0.name == name } }

  /// How much of a new CLIPBOARD owner's data is copied at once.
  public static let captureLimit = ConfigurationKey(
    name: "capture-limit", variable: "FERRY_CAPTURE_LIMIT", flag: "--capture-limit",
    kind: .number(minimum: 0, maximum: 1 << 24, unit: "MiB"), defaultValue: .number(64),
    summary:
      "How much of a new CLIPBOARD owner's data is copied at once, in MiB (0: only what SAVE_TARGETS hands over)."
  )

  /// What the daemon logs.
  public static let logLevel = ConfigurationKey(
    name: "log-level", variable: "FERRY_LOG_LEVEL", flag: "--log-level",
    kind: .choice(["trace", "debug", "info", "notice", "warning", "error", "critical"]),
    defaultValue: .word("info"),
    summary: "What the daemon logs to standard error (the journal); --verbose is debug.")

  /// Whether a history is kept.
  public static let historyEnabled = ConfigurationKey(
    name: "history.enabled", variable: "FERRY_HISTORY", flag: "--[no-]history",
    kind: .toggle, defaultValue: .toggle(true),
    summary: "Keep a clipboard history.")

  /// Whether PRIMARY is recorded.
  public static let historyPrimary = ConfigurationKey(
    name: "history.primary", variable: "FERRY_HISTORY_PRIMARY", flag: "--[no-]history-primary",
    kind: .toggle, defaultValue: .toggle(false),
    summary: "Record PRIMARY (selected text) too.")

  /// The most entries the history keeps.
  public static let historyEntries = ConfigurationKey(
    name: "history.entries", variable: "FERRY_HISTORY_ENTRIES", flag: "--history-entries",
    kind: .number(minimum: 1, maximum: 100_000_000, unit: "entries"), defaultValue: .number(1000),
    summary: "The most entries the history keeps; the oldest unpinned go first.")

  /// The most bytes the history keeps.
  public static let historySize = ConfigurationKey(
    name: "history.size", variable: "FERRY_HISTORY_MIB", flag: "--history-size",
    kind: .number(minimum: 1, maximum: 1 << 24, unit: "MiB"), defaultValue: .number(1024),
    summary: "The most the history keeps in all, in MiB.")

  /// The largest copy recorded.
  public static let historyItemSize = ConfigurationKey(
    name: "history.item-size", variable: "FERRY_HISTORY_ITEM_MIB", flag: "--history-item-size",
    kind: .number(minimum: 1, maximum: 1 << 24, unit: "MiB"), defaultValue: .number(256),
    summary: "The largest copy recorded, in MiB.")

  /// Applications whose copies are never recorded.
  public static let historyIgnore = ConfigurationKey(
    name: "history.ignore", variable: "FERRY_HISTORY_IGNORE", flag: "--history-ignore",
    kind: .names, defaultValue: .names([]),
    summary:
      "Applications whose copies are never recorded, as `ferry history --json` names their source (WM_CLASS, or pbcopy); any case."
  )

  /// How long the broker waits for each answer of another application while copying its data.
  public static let captureTimeout = ConfigurationKey(
    name: "timeouts.capture", variable: "FERRY_CAPTURE_TIMEOUT", flag: "--capture-timeout",
    kind: .seconds, defaultValue: .duration(.seconds(2)),
    summary: "Seconds the broker waits for each answer of an application whose copy it takes.")

  /// How long a reader may take over each step of an incremental transfer the broker serves.
  public static let serveTimeout = ConfigurationKey(
    name: "timeouts.serve", variable: "FERRY_SERVE_TIMEOUT", flag: "--serve-timeout",
    kind: .seconds, defaultValue: .duration(.seconds(5)),
    summary: "Seconds an X reader may take over each step of a large transfer before it is dropped."
  )

  /// The most pixels an image may have for the broker to convert it.
  public static let imagesPixelLimit = ConfigurationKey(
    name: "images.pixel-limit", variable: "FERRY_IMAGES_PIXEL_LIMIT",
    flag: "--images-pixel-limit",
    kind: .number(minimum: 1, maximum: 1_000_000, unit: "megapixels"), defaultValue: .number(40),
    summary:
      "The largest image the broker converts to other formats, in megapixels; a larger one is refused before its pixels are read."
  )

  /// The machines `ferry daemon` keeps a sync link to.
  public static let syncHosts = ConfigurationKey(
    name: "sync.hosts", variable: "FERRY_SYNC_HOSTS", flag: "--sync-host",
    kind: .names, defaultValue: .names([]),
    summary:
      "Hosts (as ssh names them) whose clipboard `ferry daemon` keeps one with this one, through `ferry sync` over ssh (docs/SYNC.md)."
  )

  /// The largest copy `ferry sync` sends or takes.
  public static let syncMaxSize = ConfigurationKey(
    name: "sync.max-size", variable: "FERRY_SYNC_MAX_SIZE", flag: "--sync-max-size",
    kind: .number(minimum: 1, maximum: 1 << 14, unit: "MiB"), defaultValue: .number(64),
    summary:
      "The largest copy `ferry sync` sends or takes, in MiB; larger ones are skipped and counted.")

  /// Types `ferry sync` never sends.
  public static let syncExclude = ConfigurationKey(
    name: "sync.exclude", variable: "FERRY_SYNC_EXCLUDE", flag: "--sync-exclude",
    kind: .names, defaultValue: .names([]),
    summary:
      "Types (identifiers or MIME types) whose copies `ferry sync` never sends; concealed, transient and this-host-only copies never go in any case."
  )

  /// Whether `ferry sync` carries PRIMARY too.
  public static let syncPrimary = ConfigurationKey(
    name: "sync.primary", variable: "FERRY_SYNC_PRIMARY", flag: "--[no-]sync-primary",
    kind: .toggle, defaultValue: .toggle(false),
    summary: "Synchronize PRIMARY (selected text) too, not only the clipboard.")
}
