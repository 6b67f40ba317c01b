import SelectionBackendCore

extension SelectionRole {
  /// The X selection of the role.
  public var selection: Selection {
    switch self {
    case .clipboard: .clipboard
    case .primary: .primary
    case .secondary: .secondary
    case .drag: .xdnd
    }
  }

  /// The role of an X selection; `nil` for a selection that has none.
  public init?(_ selection: Selection) {
    guard let role = Self.allCases.first(where: { $0.selection == selection }) else { return nil }
    self = role
  }
}

extension OwnerToken {
  /// The token of `window`'s ownership taken at `time`.
  init(_ window: XWindow, time: XTimestamp) {
    self.init(owner: UInt64(window.rawValue), generation: UInt64(time.rawValue))
  }
}

extension BackendError {
  /// What an X11 failure is, on the seam; `role` is the selection it happened on.
  public init(_ error: any Error, role: SelectionRole) {
    guard let error = error as? X11Error else {
      self = .failed("\(error)")
      return
    }
    switch error {
    case .cannotOpenDisplay: self = .cannotConnect("\(error)")
    case .connectionLost: self = .connectionLost
    case .ownershipRefused: self = .ownershipRefused(role)
    case .noOwner: self = .noOwner(role)
    case .refused(_, let target): self = .refused(role, target: target)
    case .timedOut(let step): self = .timedOut(step)
    case .tooLarge(let limit): self = .tooLarge(limit: limit)
    case .ownerChanged: self = .ownerChanged(role)
    case .protocolError, .missingExtension, .malformedReply: self = .failed("\(error)")
    }
  }
}
