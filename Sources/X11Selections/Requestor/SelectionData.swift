import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// What a selection owner sent for one target.
///
/// ```swift
/// let reply = try await display.read(.clipboard, target: "UTF8_STRING")
/// print(reply.type, String(decoding: reply.data, as: UTF8.self))
/// ```
public struct SelectionData: Sendable {
  /// The target asked for.
  public var target: String
  /// The type the owner gave the data (`UTF8_STRING`, `image/png`, `ATOM`, …).
  public var type: String
  /// The property format: 8, 16 or 32 bits per item.
  public var format: Int
  /// The bytes, when read into memory; empty when they were streamed to a descriptor.
  /// Format-32 data are 32-bit values.
  public var data: Data
  /// How many bytes were received.
  public var byteCount: Int
  /// Whether the owner sent the data incrementally (INCR).
  public var wasIncremental: Bool
  /// Who owned the selection when it was asked.
  public var owner: SelectionOwnership?
}

/// Where a read puts the bytes.
public enum SelectionSink: Sendable {
  /// Into ``SelectionData/data``.
  case memory
  /// Written to an open descriptor as they arrive, never held whole.
  case fileDescriptor(Int32)
}

/// A change of a selection's owner, as XFixes reports it.
public struct SelectionOwnerChange: Sendable, Equatable {
  /// What happened.
  public enum Kind: Sendable, Equatable {
    /// A client took the selection.
    case newOwner
    /// The owner's window was destroyed.
    case windowDestroyed
    /// The owner's client closed its connection.
    case clientClosed
    /// A client set the owner to None: this process's own disown, or another program's
    /// clear (`xsel --clear`, a password manager clearing a secret).
    case cleared

    init(_ kind: X11Event.OwnerChange.Kind) {
      switch kind {
      case .newOwner: self = .newOwner
      case .windowDestroyed: self = .windowDestroyed
      case .clientClosed: self = .clientClosed
      }
    }
  }

  /// The selection's name (`CLIPBOARD`, `PRIMARY`).
  public var selection: Selection
  /// What happened.
  public var kind: Kind
  /// The new owner, or `.none`.
  public var owner: XWindow
  /// Whether the new owner is this connection's window.
  public var isOwnedByThisProcess: Bool
  /// The server time of the change.
  public var time: XTimestamp
}
