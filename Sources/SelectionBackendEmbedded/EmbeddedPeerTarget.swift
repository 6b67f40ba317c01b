import FoundationEssentials
import SelectionBackendCore
import UniformTypeIdentifiers

/// One target a simulated peer offers on an ``EmbeddedSelectionBackend``: its name, type and
/// data — or silence, for an owner that never answers it.
public struct EmbeddedPeerTarget: Sendable {
  /// The target's name (`UTF8_STRING`, `application/json`).
  public var name: String
  /// Its type.
  public var type: UTType
  /// Its data; `nil` makes the peer hang on it, so a read ends at its step timeout.
  public var data: Data?

  /// A target that answers with `data`, or hangs when `data` is `nil`.
  public init(_ name: String, _ type: UTType, _ data: Data?) {
    self.name = name
    self.type = type
    self.data = data
  }

  /// A UTF-8 text target (`UTF8_STRING`).
  public static func text(_ text: String) -> EmbeddedPeerTarget {
    EmbeddedPeerTarget("UTF8_STRING", .utf8PlainText, Data(text.utf8))
  }

  /// The offer's view of the target.
  var offered: OwnerOffer.Target { OwnerOffer.Target(name: name, type: type) }
}
