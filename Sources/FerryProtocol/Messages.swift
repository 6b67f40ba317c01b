#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The wire protocol's constants: its version and the pasteboards a request names by default.
public enum WireProtocol {
  /// The protocol version this module speaks, sent in `hello`.
  public static let version = 1
  /// The pasteboard a request without `pasteboard` addresses.
  public static let defaultPasteboard = "general"
  /// The pasteboards a `watch` without `pasteboards` follows.
  public static let defaultWatchedPasteboards = ["general", "primary"]
}

/// The operations a REQUEST frame can name in its `op` field.
public enum BrokerOperation: String, Codable, Sendable, CaseIterable {
  case hello, write, read, types, watch, clear, register, status
  /// What `ferry sync` reports of its links, answered with the broker's clock
  /// (`Messages+Sync.swift`).
  case syncReport
  /// The clipboard history's operations (`Messages+History.swift`).
  case historyList, historySearch, historyShow, historyRestore, historyDelete, historyClear,
    historyPin, historyUnpin
}

/// The `op` field alone, read first to learn which request a REQUEST frame holds.
public struct RequestHead: Codable, Sendable {
  /// The operation's name, kept as sent so an unknown one can be named in the error.
  public var op: String
}

/// A request body: a JSON object whose `op` names the operation.
public protocol BrokerRequest: Codable, Sendable {
  /// The operation the request is for.
  var op: BrokerOperation { get }
}

/// The first request of every connection.
///
/// `{"op":"hello","version":1,"client":"pbpaste"}`
public struct HelloRequest: BrokerRequest, Hashable {
  public var op = BrokerOperation.hello
  /// The protocol version the client speaks.
  public var version: Int
  /// The client's name, for the broker's log.
  public var client: String?

  /// Creates a hello for ``FerryProtocol/version``.
  public init(version: Int = WireProtocol.version, client: String? = nil) {
    self.version = version
    self.client = client
  }
}

/// The answer to `hello`.
///
/// `{"version":1,"broker":"ferry","pid":4242}`
public struct HelloResponse: Codable, Sendable, Hashable {
  /// The protocol version both sides now speak.
  public var version: Int
  /// The broker's name.
  public var broker: String
  /// The broker's process id.
  public var pid: Int32

  public init(version: Int, broker: String = "ferry", pid: Int32) {
    self.version = version
    self.broker = broker
    self.pid = pid
  }
}

/// How an item may be kept and shown; the options of `PasteboardItem`.
public enum ItemOption: String, Codable, Sendable, CaseIterable {
  /// Sensitive content: served, never written to disk, logs or watch output.
  case concealed
  /// Temporary content that history should not record.
  case transient
  /// Content that stays on this machine.
  case currentHostOnly
}

/// One representation announced by a `write` request; its bytes follow as DATA frames.
public struct RepresentationHeader: Codable, Sendable, Hashable {
  /// A type identifier (`public.utf8-plain-text`) or a MIME type (`text/plain`).
  public var type: String

  public init(type: String) { self.type = type }
}

/// Puts one item on a pasteboard. After the request come, for each representation in
/// order, its DATA frames and an END frame.
///
/// `{"op":"write","pasteboard":"general","representations":[{"type":"public.utf8-plain-text"}],
/// "options":["concealed"],"expires":1767225600}`
public struct WriteRequest: BrokerRequest, Hashable {
  public var op = BrokerOperation.write
  /// The pasteboard; `general` when absent.
  public var pasteboard: String?
  /// The representations, richest first.
  public var representations: [RepresentationHeader]
  /// How the item may be kept and shown.
  public var options: [ItemOption]?
  /// When the item stops being served, in seconds since 1970.
  public var expires: Double?
  /// Where the item was first copied, for an item `ferry sync` brings from another machine:
  /// the broker then takes it only when its tag is greater than the current item's (the
  /// answer's `applied` says whether it did), and keeps the origin with it.
  public var origin: ItemOrigin?

  public init(
    pasteboard: String? = nil, representations: [RepresentationHeader],
    options: [ItemOption]? = nil, expires: Double? = nil, origin: ItemOrigin? = nil
  ) {
    self.pasteboard = pasteboard
    self.representations = representations
    self.options = options
    self.expires = expires
    self.origin = origin
  }
}

/// The answer to `write` and `clear`: the pasteboard's change count after it.
public struct ChangeCountResponse: Codable, Sendable, Hashable {
  public var changeCount: Int
  /// For a write with an `origin`: `false` when the current item's tag was greater, so the
  /// item went to the history only. Absent otherwise (the item was written).
  public var applied: Bool?

  public init(changeCount: Int, applied: Bool? = nil) {
    self.changeCount = changeCount
    self.applied = applied
  }
}

/// Asks for the first of `types` the pasteboard serves, conversions included.
///
/// `{"op":"read","pasteboard":"general","types":["public.html","public.utf8-plain-text"]}`
public struct ReadRequest: BrokerRequest, Hashable {
  public var op = BrokerOperation.read
  /// The pasteboard; `general` when absent.
  public var pasteboard: String?
  /// The types in the caller's order of preference; empty means the first item's first
  /// stored type.
  public var types: [String]
  /// Whether the client can copy a file of the broker's itself: the broker then answers a
  /// spooled representation with ``ReadResponse/file`` instead of DATA frames. Absent means
  /// `false`.
  public var inPlace: Bool?

  public init(pasteboard: String? = nil, types: [String], inPlace: Bool? = nil) {
    self.pasteboard = pasteboard
    self.types = types
    self.inPlace = inPlace
  }
}

/// A file of the broker's holding a representation's bytes, for a client that copies them
/// itself (see ``ReadRequest/inPlace``).
///
/// The file does not change while it exists, but the broker removes it when the item is
/// replaced: the client opens it, checks that device, inode and size are these, and asks
/// again without `inPlace` when the file is gone or another one.
///
/// `{"path":"/home/ana/.cache/ferry/spool/4242-x1/5C…","device":2049,"inode":1311,"size":104857600}`
public struct FileReference: Codable, Sendable, Hashable {
  /// The file's absolute path.
  public var path: String
  /// Its device number (`st_dev`).
  public var device: UInt64
  /// Its inode number (`st_ino`).
  public var inode: UInt64
  /// Its size in bytes: the representation's length.
  public var size: Int64

  public init(path: String, device: UInt64, inode: UInt64, size: Int64) {
    self.path = path
    self.device = device
    self.inode = inode
    self.size = size
  }
}

/// The answer to `read`, followed by the bytes as DATA frames and an END frame (or by END
/// alone when it names a ``file``).
///
/// `{"type":"public.utf8-plain-text","requested":"public.plain-text"}`
public struct ReadResponse: Codable, Sendable, Hashable {
  /// The type of the bytes that follow: the requested type or one that conforms to it.
  public var type: String
  /// The entry of the preference list that was served.
  public var requested: String
  /// Where to copy the bytes from, when the request allowed it: then no DATA frame follows,
  /// only END.
  public var file: FileReference?

  public init(type: String, requested: String, file: FileReference? = nil) {
    self.type = type
    self.requested = requested
    self.file = file
  }
}

/// Asks what a pasteboard holds.
public struct TypesRequest: BrokerRequest, Hashable {
  public var op = BrokerOperation.types
  /// The pasteboard; `general` when absent.
  public var pasteboard: String?

  public init(pasteboard: String? = nil) { self.pasteboard = pasteboard }
}

/// What a pasteboard holds: the answer to `types`, and the body of a watch EVENT.
///
/// `{"pasteboard":"general","changeCount":7,"types":[…],"storedTypes":[…],"concealed":false}`
public struct PasteboardState: Codable, Sendable, Hashable {
  /// The pasteboard's name.
  public var pasteboard: String
  /// The change count this state belongs to.
  public var changeCount: Int
  /// Every type served, stored ones first, then those reachable by conversion.
  public var types: [String]
  /// The stored types, in the item's order.
  public var storedTypes: [String]
  /// Whether an item is concealed (a password): its bytes never appear in watch output.
  public var concealed: Bool
  /// The first item's options other than `concealed` (`transient`, `currentHostOnly`), from
  /// the write or from marker types; absent when it has none.
  public var options: [ItemOption]?
  /// Where the first item was copied (``ItemOrigin``); absent for an empty pasteboard and
  /// from a broker before `ferry sync`.
  public var origin: ItemOrigin?

  public init(
    pasteboard: String, changeCount: Int, types: [String], storedTypes: [String],
    concealed: Bool, options: [ItemOption]? = nil, origin: ItemOrigin? = nil
  ) {
    self.pasteboard = pasteboard
    self.changeCount = changeCount
    self.types = types
    self.storedTypes = storedTypes
    self.concealed = concealed
    self.options = options
    self.origin = origin
  }
}

/// Follows pasteboards: one EVENT frame (a ``PasteboardState``) per change, until the client
/// closes the connection.
public struct WatchRequest: BrokerRequest, Hashable {
  public var op = BrokerOperation.watch
  /// The pasteboards; `general` and `primary` when absent.
  public var pasteboards: [String]?

  public init(pasteboards: [String]? = nil) { self.pasteboards = pasteboards }
}

/// The answer to `watch`, sent before the first event.
public struct WatchResponse: Codable, Sendable, Hashable {
  /// The pasteboards followed.
  public var pasteboards: [String]

  public init(pasteboards: [String]) { self.pasteboards = pasteboards }
}

/// Removes a pasteboard's items.
public struct ClearRequest: BrokerRequest, Hashable {
  public var op = BrokerOperation.clear
  /// The pasteboard; `general` when absent.
  public var pasteboard: String?

  public init(pasteboard: String? = nil) { self.pasteboard = pasteboard }
}

/// Registers a declaration file (types and conversions); its bytes follow as DATA frames
/// and an END frame.
public struct RegisterRequest: BrokerRequest, Hashable {
  public var op = BrokerOperation.register
  /// The file's name, used in diagnostics and to replace an earlier registration of the
  /// same name.
  public var name: String
  /// Accept `com.example` identifiers (for examples and tests).
  public var allowExampleNamespace: Bool?
  /// The absolute directory the file was read from on the client's side: a command path
  /// such as `./render.sh` is resolved against it, not against the broker's copy. Absent:
  /// such a path cannot be resolved and is reported.
  public var directory: String?

  public init(name: String, allowExampleNamespace: Bool? = nil, directory: String? = nil) {
    self.name = name
    self.allowExampleNamespace = allowExampleNamespace
    self.directory = directory
  }
}

/// The answer to `register`: one line per problem; empty when everything registered.
public struct RegisterResponse: Codable, Sendable, Hashable {
  public var problems: [String]

  public init(problems: [String]) { self.problems = problems }
}

/// Asks how the broker is doing.
public struct StatusRequest: BrokerRequest, Hashable {
  public var op = BrokerOperation.status

  public init() {}
}

/// The answer to `status`.
public struct StatusResponse: Codable, Sendable, Hashable {
  /// The broker's software version.
  public var version: String
  /// The protocol version.
  public var protocolVersion: Int
  /// The broker's process id.
  public var pid: Int32
  /// Seconds since the broker started.
  public var uptime: Double
  /// The X display bridged, or `nil` when headless.
  public var display: String?
  /// Whether pasteboards are published as X11 selections.
  public var x11Bridged: Bool
  /// Whether the broker holds the X11 clipboard-manager role.
  public var clipboardManager: Bool
  /// The socket the broker listens on.
  public var socket: String
  /// The pasteboards, each with its change count and types.
  public var pasteboards: [PasteboardState]
  /// The clipboard history: how much it holds, or why it is off; `nil` from a broker that
  /// does not say.
  public var history: HistoryStatusSummary?
  /// The Wayland display bridged (through data-control); `nil` when none is, or from a
  /// broker that does not say.
  public var wayland: String?
  /// Every display server the broker opened or was asked to, bridged or not (and why); `nil`
  /// from a broker before the list. `display`, `x11Bridged` and `wayland` say the same for X11
  /// and Wayland and are kept for one release (docs/PROTOCOL.md).
  public var displays: [DisplayStatus]?
  /// The links of every `ferry sync` reporting to this broker; absent when none does.
  public var sync: [SyncLinkStatus]?

  public init(
    version: String, protocolVersion: Int = WireProtocol.version, pid: Int32, uptime: Double,
    display: String?, x11Bridged: Bool, clipboardManager: Bool, socket: String,
    pasteboards: [PasteboardState], history: HistoryStatusSummary? = nil, wayland: String? = nil,
    displays: [DisplayStatus]? = nil, sync: [SyncLinkStatus]? = nil
  ) {
    self.version = version
    self.protocolVersion = protocolVersion
    self.pid = pid
    self.uptime = uptime
    self.display = display
    self.x11Bridged = x11Bridged
    self.clipboardManager = clipboardManager
    self.socket = socket
    self.pasteboards = pasteboards
    self.history = history
    self.wayland = wayland
    self.displays = displays
    self.sync = sync
  }

  enum CodingKeys: String, CodingKey {
    case version, protocolVersion, pid, uptime, display, x11Bridged, clipboardManager, socket
    case pasteboards, history, wayland, displays, sync
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(version, forKey: .version)
    try container.encode(protocolVersion, forKey: .protocolVersion)
    try container.encode(pid, forKey: .pid)
    try container.encode(uptime, forKey: .uptime)
    try container.encode(display, forKey: .display)  // null when headless, never absent
    try container.encode(x11Bridged, forKey: .x11Bridged)
    try container.encode(clipboardManager, forKey: .clipboardManager)
    try container.encode(socket, forKey: .socket)
    try container.encode(pasteboards, forKey: .pasteboards)
    try container.encodeIfPresent(history, forKey: .history)
    try container.encodeIfPresent(wayland, forKey: .wayland)
    try container.encodeIfPresent(displays, forKey: .displays)
    try container.encodeIfPresent(sync, forKey: .sync)
  }
}

/// The body of an ERROR frame.
///
/// `{"code":"notAvailable","message":"public.png is not available (the item offers …)"}`
public struct ErrorBody: Codable, Sendable, Hashable {
  /// What kind of failure.
  public var code: BrokerErrorCode
  /// One line for people.
  public var message: String

  public init(code: BrokerErrorCode, message: String) {
    self.code = code
    self.message = message
  }
}

extension Frame {
  /// A frame of a JSON kind holding `value` as JSON.
  ///
  /// - Throws: `EncodingError` when `value` cannot be encoded.
  public static func json(_ kind: Kind, _ value: some Encodable) throws -> Frame {
    precondition(kind.carriesJSON, "\(kind) frames carry no JSON")
    return Frame(kind: kind, body: Array(try JSONCoding.encoder.encode(value)))
  }

  /// The body decoded as `type`.
  ///
  /// - Throws: `DecodingError` when the body is not such JSON.
  public func decodeJSON<T: Decodable>(_ type: T.Type) throws -> T {
    try JSONCoding.decoder.decode(type, from: Data(body))
  }
}

/// The JSON settings of the protocol.
enum JSONCoding {
  static var encoder: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }

  static var decoder: JSONDecoder { JSONDecoder() }
}
