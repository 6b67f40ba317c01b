/// What a drop does with the data: the XDND actions.
///
/// The source asks for one in each `XdndPosition`; the target answers with the one it will
/// perform in `XdndStatus`, and reports the one it performed in `XdndFinished` (XDND 5).
///
/// ```swift
/// DragAction.copy.atomName   // "XdndActionCopy"
/// ```
///
/// XDND: https://freedesktop.org/wiki/Specifications/XDND/#actions
public enum DragAction: String, Sendable, CaseIterable, Codable {
  /// Copy the data. The corresponding atom is `XdndActionCopy`.
  case copy
  /// Move the data: the source deletes its copy after a successful drop. The corresponding
  /// atom is `XdndActionMove`.
  case move
  /// Make a link to the data. The corresponding atom is `XdndActionLink`.
  case link
  /// Ask the user which action to take. The corresponding atom is `XdndActionAsk`.
  case ask
  /// An action private to the application. The corresponding atom is `XdndActionPrivate`.
  case `private`

  /// The atom's name, `XdndActionCopy` and so on.
  public var atomName: String {
    switch self {
    case .copy: "XdndActionCopy"
    case .move: "XdndActionMove"
    case .link: "XdndActionLink"
    case .ask: "XdndActionAsk"
    case .private: "XdndActionPrivate"
    }
  }
}
