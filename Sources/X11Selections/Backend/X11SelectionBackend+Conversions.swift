import SelectionBackend

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

extension OwnerOffer {
  /// The seam's view of an X11 offer.
  init(_ offer: SelectionOffer) {
    let role = SelectionRole(offer.selection) ?? .clipboard
    self.init(
      role: role, targets: offer.targets.map { Target(name: $0.name, type: $0.type) },
      essentialTargets: offer.essentialTargets.map { Target(name: $0.name, type: $0.type) },
      isConcealed: offer.isConcealed, advertised: offer.advertised,
      owner: offer.owner.map { OwnerToken($0.window, time: $0.since) })
  }
}

extension SelectionOffer {
  /// The X11 offer behind a seam offer: the same targets, listed again.
  init(_ offer: OwnerOffer) {
    self.init(
      selection: offer.role.selection, advertised: offer.advertised,
      owner: offer.owner.map {
        SelectionOwnership(
          window: XWindow(rawValue: UInt($0.owner)),
          since: XTimestamp(rawValue: UInt($0.generation)))
      })
  }
}
