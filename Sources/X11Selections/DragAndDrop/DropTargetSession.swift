/// The target's side of one XDND 5 conversation, as a value: no Xlib, no clock.
///
/// The glue feeds it the decoded messages and performs the actions it returns: read the
/// source's `XdndTypeList`, answer every `XdndPosition` with exactly one `XdndStatus`,
/// convert `XdndSelection` on `XdndDrop`, then send `XdndFinished` — always after a drop,
/// and never otherwise (a finish in reply to a rejected position left i3 and Compiz stuck in
/// drag mode: https://github.com/rust-windowing/winit/issues/687).
///
/// ```swift
/// var target = DropTargetSession(ignoredTypes: [])
/// target.enter(source: s, version: 5, moreThanThreeTypes: true, types: [])  // [.readTypeList(from: s)]
/// target.typeListRead([uriList, utf8], from: s)
/// target.position(source: s, inside: true, requested: .copy)   // [.sendStatus(to: s, accept: true, action: .copy)]
/// target.drop(source: s, time: t)          // [.convert(source: s, types: [uriList, utf8], time: t, action: .copy)]
/// target.conversionsFinished(success: true) // [.sendFinished(to: s, success: true, action: .copy)]
/// ```
///
/// XDND: https://freedesktop.org/wiki/Specifications/XDND/
struct DropTargetSession: Sendable, Equatable {
  /// The versions this target speaks: GTK and Qt refuse anything below 3 too.
  static let versions = 3...5

  /// What the source offers.
  struct Offer: Sendable, Equatable {
    var source: XWindow
    var version: Int
    var types: [XAtom]
  }

  enum State: Sendable, Equatable {
    /// No drag over the window.
    case idle
    /// A drag is over the window; `accepted` is what the last status said.
    case offered(Offer, accepted: Bool, action: DragAction)
    /// Dropped: converting the types; the finish is owed to the source.
    case converting(Offer, action: DragAction, time: XTimestamp)
  }

  enum Action: Sendable, Equatable {
    /// Read `XdndTypeList` from the source window and call ``typeListRead(_:from:)``.
    case readTypeList(from: XWindow)
    /// Answer a position.
    case sendStatus(to: XWindow, accept: Bool, action: DragAction?)
    /// Convert `XdndSelection` to each of `types`, in order, then call
    /// ``conversionsFinished(success:)``.
    case convert(source: XWindow, types: [XAtom], time: XTimestamp, action: DragAction)
    /// Tell the source the drop is over.
    case sendFinished(to: XWindow, success: Bool, action: DragAction?)
  }

  /// Targets never converted: they describe the selection, or convert with side effects.
  let ignoredTypes: Set<XAtom>
  private(set) var state = State.idle

  init(ignoredTypes: Set<XAtom>) {
    self.ignoredTypes = ignoredTypes
  }

  /// The types worth converting, in the source's order.
  var wantedTypes: [XAtom] {
    switch state {
    case .idle: []
    case .offered(let offer, _, _), .converting(let offer, _, _): wanted(offer.types)
    }
  }

  private func wanted(_ types: [XAtom]) -> [XAtom] {
    var seen = Set<XAtom>()
    return types.filter { $0 != .none && !ignoredTypes.contains($0) && seen.insert($0).inserted }
  }

  /// `XdndEnter`: a drag came in.
  mutating func enter(source: XWindow, version: Int, moreThanThreeTypes: Bool, types: [XAtom])
    -> [Action]
  {
    if case .converting = state { return [] }  // busy with a drop: the newcomer's positions are rejected
    guard Self.versions.contains(version) else {
      state = .idle
      return []
    }
    state = .offered(
      Offer(source: source, version: version, types: types), accepted: false, action: .copy)
    // GTK leaves the inline slots empty when it sets the bit: read the list whenever it is set.
    return moreThanThreeTypes ? [.readTypeList(from: source)] : []
  }

  /// The source's `XdndTypeList`, read after an enter that asked for it.
  mutating func typeListRead(_ types: [XAtom], from source: XWindow) {
    guard case .offered(var offer, let accepted, let action) = state, offer.source == source else {
      return
    }
    if !types.isEmpty { offer.types = types }
    state = .offered(offer, accepted: accepted, action: action)
  }

  /// `XdndPosition`: answered with exactly one status, whatever the state.
  ///
  /// - Parameters:
  ///   - inside: Whether the root position is inside the window.
  ///   - requested: The action the source asks for.
  mutating func position(source: XWindow, inside: Bool, requested: DragAction?) -> [Action] {
    guard case .offered(let offer, _, _) = state, offer.source == source else {
      return [.sendStatus(to: source, accept: false, action: nil)]
    }
    let accept = inside && !wanted(offer.types).isEmpty
    let action = Self.action(for: requested)
    state = .offered(offer, accepted: accept, action: action)
    return [.sendStatus(to: source, accept: accept, action: accept ? action : nil)]
  }

  /// The action this target performs when the source asks for `requested`: it keeps what it
  /// receives, so a link stays a link and everything else is a copy. A move is taken as a
  /// copy on purpose: the source would delete the original.
  static func action(for requested: DragAction?) -> DragAction {
    requested == .link ? .link : .copy
  }

  /// `XdndLeave`: the drag went elsewhere, or was cancelled.
  mutating func leave(source: XWindow) -> [Action] {
    if case .offered(let offer, _, _) = state, offer.source == source { state = .idle }
    return []
  }

  /// `XdndDrop`: convert what was accepted, or finish at once with failure.
  mutating func drop(source: XWindow, time: XTimestamp) -> [Action] {
    switch state {
    case .offered(let offer, let accepted, let action) where offer.source == source:
      guard accepted else {
        state = .idle
        return [.sendFinished(to: source, success: false, action: nil)]
      }
      state = .converting(offer, action: action, time: time)
      return [.convert(source: source, types: wanted(offer.types), time: time, action: action)]
    default:
      // A drop nobody accepted still gets its finish, so the source is not left waiting.
      return [.sendFinished(to: source, success: false, action: nil)]
    }
  }

  /// The conversions of the drop are over; `success` when at least one gave data.
  mutating func conversionsFinished(success: Bool) -> [Action] {
    guard case .converting(let offer, let action, _) = state else { return [] }
    state = .idle
    return [.sendFinished(to: offer.source, success: success, action: success ? action : nil)]
  }
}
