import FerryProtocol

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One control message of a sync link, the JSON of an EVENT frame (docs/SYNC.md, "The link").
/// Representations' bytes follow an eager ``Offer`` or a ``Stream`` as DATA frames, each
/// representation closed by END; nothing else comes between.
public enum SyncMessage: Sendable, Hashable {
  /// The first frame each way.
  case hello(Hello)
  /// An item: its bytes follow at once when `eager`, else when the peer pulls it.
  case offer(Offer)
  /// The receiver wants a non-eager offer's bytes.
  case pull(id: Int)
  /// The receiver does not want an offer (too large there).
  case decline(id: Int, reason: String)
  /// The bytes of a pulled offer follow.
  case stream(id: Int)
  /// The sender gave up an offer (a newer copy came): the receiver drops what it has of it.
  case abort(id: Int)
  /// The receiver wrote the item (`applied`), or kept it in its history only (a newer copy
  /// was there).
  case ack(id: Int, applied: Bool)

  /// The handshake: who answers, and the state the reconnect rule compares.
  public struct Hello: Codable, Sendable, Hashable {
    /// `hello`.
    public var op = "hello"
    /// Always ``SyncMessage/magic``.
    public var magic: String
    /// The link's version.
    public var version: Int
    /// The broker's node (``ItemOrigin/node`` of its local copies).
    public var node: String
    /// The machine's host name.
    public var host: String
    /// The software: `ferry 1.4`.
    public var software: String
    /// Which broker answers: `display-0`, `headless`.
    public var broker: String
    /// The origin of the general pasteboard's current item.
    public var current: ItemOrigin?
    /// From the side that started the link: the origin both sides last agreed on.
    public var lastSynced: ItemOrigin?

    public init(
      node: String, host: String, software: String, broker: String, current: ItemOrigin?,
      lastSynced: ItemOrigin?
    ) {
      magic = SyncMessage.magic
      version = SyncMessage.version
      self.node = node
      self.host = host
      self.software = software
      self.broker = broker
      self.current = current
      self.lastSynced = lastSynced
    }
  }

  /// An item offered.
  public struct Offer: Codable, Sendable, Hashable {
    /// `offer`.
    public var op = "offer"
    /// The link's number for it, increasing.
    public var id: Int
    /// The pasteboard.
    public var pasteboard: String
    /// Where it was copied; `via` is the sender.
    public var origin: ItemOrigin
    /// The representations' types, in the item's order.
    public var types: [String]
    /// Their sizes in bytes.
    public var sizes: [Int]
    /// Seconds until it expires, when it does (never a timestamp: clocks differ).
    public var expiresIn: Double?
    /// Whether the bytes follow at once.
    public var eager: Bool

    public init(
      id: Int, pasteboard: String, origin: ItemOrigin, types: [String], sizes: [Int],
      expiresIn: Double?, eager: Bool
    ) {
      self.id = id
      self.pasteboard = pasteboard
      self.origin = origin
      self.types = types
      self.sizes = sizes
      self.expiresIn = expiresIn
      self.eager = eager
    }

    /// The bytes in all; `nil` when the sizes overflow (the decoder refuses such an offer).
    public var totalBytes: Int? {
      var total = 0
      for size in sizes {
        let (sum, overflow) = total.addingReportingOverflow(size)
        guard !overflow, size >= 0 else { return nil }
        total = sum
      }
      return total
    }
  }

  /// `ferry-sync`: what the handshake starts with.
  public static let magic = "ferry-sync"
  /// The version of the link's messages.
  public static let version = 1
  /// The most representations an offer may announce.
  public static let maximumRepresentations = 64

  private struct Envelope: Codable {
    var op: String
    var id: Int?
    var reason: String?
    var applied: Bool?
  }

  /// The message as an EVENT frame.
  public var frame: Frame {
    // Every message is small and made of strings and numbers: encoding cannot fail.
    switch self {
    case .hello(let hello): return Self.frame(hello)
    case .offer(let offer): return Self.frame(offer)
    case .pull(let id): return Self.frame(Envelope(op: "pull", id: id))
    case .decline(let id, let reason):
      return Self.frame(Envelope(op: "decline", id: id, reason: reason))
    case .stream(let id): return Self.frame(Envelope(op: "stream", id: id))
    case .abort(let id): return Self.frame(Envelope(op: "abort", id: id))
    case .ack(let id, let applied): return Self.frame(Envelope(op: "ack", id: id, applied: applied))
    }
  }

  /// The message an EVENT frame holds.
  ///
  /// - Throws: ``SyncLinkError/protocolViolation(_:)`` naming what is wrong: not JSON, an
  ///   unknown `op`, a field missing or out of range.
  public init(frame: Frame) throws(SyncLinkError) {
    guard frame.kind == .event else {
      throw .protocolViolation("a \(frame.kind) frame where a message was expected")
    }
    let envelope: Envelope
    do {
      envelope = try frame.decodeJSON(Envelope.self)
    } catch {
      throw .protocolViolation("a message that is not a JSON object with an \"op\"")
    }
    func id() throws(SyncLinkError) -> Int {
      guard let id = envelope.id, id >= 0 else {
        throw .protocolViolation("a \(envelope.op) message without an id")
      }
      return id
    }
    switch envelope.op {
    case "hello":
      let hello = try Self.body(Hello.self, of: frame)
      guard hello.magic == Self.magic else {
        throw .protocolViolation("the hello's magic is not \(Self.magic)")
      }
      self = .hello(hello)
    case "offer":
      let offer = try Self.body(Offer.self, of: frame)
      guard offer.id >= 0, !offer.types.isEmpty,
        offer.types.count <= Self.maximumRepresentations,
        offer.sizes.count == offer.types.count, offer.sizes.allSatisfy({ $0 >= 0 }),
        offer.totalBytes != nil,
        Set(offer.types).count == offer.types.count,
        offer.expiresIn.map({ $0.isFinite && $0 > 0 }) ?? true
      else {
        throw .protocolViolation("an offer whose types and sizes do not match")
      }
      self = .offer(offer)
    case "pull": self = .pull(id: try id())
    case "decline": self = .decline(id: try id(), reason: envelope.reason ?? "declined")
    case "stream": self = .stream(id: try id())
    case "abort": self = .abort(id: try id())
    case "ack": self = .ack(id: try id(), applied: envelope.applied ?? false)
    default:
      throw .protocolViolation("an unknown message \"\(envelope.op.prefix(40))\"")
    }
  }

  private static func frame(_ value: some Encodable) -> Frame {
    (try? Frame.json(.event, value)) ?? Frame(kind: .event, body: Array("{}".utf8))
  }

  private static func body<T: Decodable>(_ type: T.Type, of frame: Frame) throws(SyncLinkError)
    -> T
  {
    do {
      return try frame.decodeJSON(type)
    } catch {
      throw .protocolViolation("a malformed \(T.self) message")
    }
  }
}
