/// Who may see a representation: any process, the sender's team or group, or only the sender.
///
/// Apply it with ``TransferRepresentation/visibility(_:)``; read it back with
/// ``Transferable/exportedContentTypes(visibility:)``, which lists what an audience sees:
///
/// ```swift
/// static var transferRepresentation: some TransferRepresentation {
///   CodableRepresentation(contentType: .profile).visibility(.ownProcess)
///   ProxyRepresentation(exporting: \.name)
/// }
///
/// Profile.exportedContentTypes(visibility: .all)          // [utf8-plain-text, plain-text]
/// Profile.exportedContentTypes(visibility: .ownProcess)
/// // [com.example.profile, utf8-plain-text, plain-text]
/// ```
///
/// A representation is visible to an audience when its visibility is ``all``, when it equals
/// the audience, or when the audience is ``ownProcess`` (the sender sees everything it
/// offers). On Linux there is no code signing: the pasteboard decides which peers count as
/// the sender's ``team`` or ``group``. Unlike Apple's platforms, both are available here.
public struct TransferRepresentationVisibility: Sendable, Hashable, CustomStringConvertible {
  enum Audience: UInt8 {
    case all, team, group, ownProcess
  }

  let audience: Audience

  /// Visible to every process. The default.
  ///
  /// ```swift
  /// DataRepresentation(exportedContentType: .png) { $0.png }.visibility(.all)
  /// ```
  public static let all = Self(audience: .all)

  /// Visible to programs from the same developer team, and to the sender.
  ///
  /// ```swift
  /// CodableRepresentation(contentType: .draft).visibility(.team)
  /// ```
  public static let team = Self(audience: .team)

  /// Visible to programs in the same group, and to the sender.
  ///
  /// ```swift
  /// CodableRepresentation(contentType: .draft).visibility(.group)
  /// ```
  public static let group = Self(audience: .group)

  /// Visible only inside the sending process: in-app drag and drop.
  ///
  /// ```swift
  /// ProxyRepresentation(exporting: \.id.uuidString).visibility(.ownProcess)
  /// ```
  public static let ownProcess = Self(audience: .ownProcess)

  /// Whether a representation with this visibility is shown to `audience`.
  ///
  /// ```swift
  /// TransferRepresentationVisibility.team.isVisible(to: .ownProcess)   // true
  /// TransferRepresentationVisibility.team.isVisible(to: .all)          // false
  /// ```
  package func isVisible(to audience: Self) -> Bool {
    self == .all || self == audience || audience == .ownProcess
  }

  /// The name of the static value: `all`, `team`, `group` or `ownProcess`.
  ///
  /// ```swift
  /// TransferRepresentationVisibility.ownProcess.description   // "ownProcess"
  /// ```
  public var description: String {
    switch audience {
    case .all: "all"
    case .team: "team"
    case .group: "group"
    case .ownProcess: "ownProcess"
    }
  }
}
