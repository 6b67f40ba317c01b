/// A capture's `MULTIPLE` request on the requestor's side, as a value: no Xlib, no clock.
///
/// ICCCM §2.6.2. One request converts every member (a target and the property it is asked
/// into); the owner answers once, and the members are then read in order, each through its
/// own ``SelectionRead``, within what is left of one budget — as a capture by single requests
/// reads them. Nothing the owner wrote is left half-read: a member that no longer fits, or
/// that follows a member whose owner hung, is still taken from its property — deleted unread,
/// or its INCR transfer drained to the end — and its bytes dropped.
///
/// When the request as a whole fails (the owner refuses `MULTIPLE`, never answers it, or
/// answers with a list that is not the one asked for), ``failure`` says why and the members
/// it left without an answer end ``Member/unanswered``: the caller asks for them one by one.
/// What the owner may already have written into their properties is emptied first, except
/// after a timeout, when the owner may still be writing.
///
/// The owner answers once, after writing every member (GTK, Qt, Ferry); an owner whose
/// `TARGETS` list gives away that its `MULTIPLE` is broken is never asked (see
/// ``SelectionBackendCore/OwnerOffer/convertsMultiple``).
///
/// ```swift
/// var read = MultipleRead(selection: .clipboard, targets: ["text/html", "UTF8_STRING"], budget: 1 << 20)
/// read.replied(.converted([true, true]))      // .read(0, budget: 1 << 20)
/// read.memberRead(0, .success(1000))          // .read(1, budget: (1 << 20) - 1000)
/// read.memberRead(1, .failure(.tooLarge(limit: 1_047_576)))  // .finish
/// ```
struct MultipleRead: Sendable, Equatable {
  /// Where one member stands.
  enum Member: Sendable, Equatable {
    /// The owner has not answered it yet.
    case waiting
    /// Its property holds the owner's answer, not read yet.
    case answered
    /// The request failed before the owner answered it: whatever its property holds is to be
    /// emptied before it is asked for on its own.
    case stale
    /// Its property is being read.
    case reading(Disposal)
    /// Its bytes are kept: this many.
    case kept(byteCount: Int)
    /// It has no data, for this reason (the owner refused it, it did not fit, …).
    case failed(X11Error)
    /// It was emptied and dropped: the budget was spent, or the owner hung on an earlier member.
    case notRead
    /// The request failed before the owner answered it: ask for it with a request of its own.
    case unanswered
  }

  /// What becomes of what a member's property holds.
  enum Disposal: Sendable, Equatable {
    /// Kept, within what is left of the budget.
    case keep
    /// Emptied and dropped.
    case discard
    /// Emptied and dropped; the member is then asked for on its own.
    case discardAndRetry
  }

  /// What the owner's `SelectionNotify` for `MULTIPLE` said.
  enum Reply: Sendable, Equatable {
    /// The list came back: for each member, whether the owner converted it.
    case converted([Bool])
    /// The owner named no property.
    case refused
    /// The list is missing or not the one asked for.
    case malformed(String)
  }

  enum Action: Sendable, Equatable {
    /// Read member `index`'s property through a ``SelectionRead`` with this budget (zero to
    /// empty it), then report with ``memberRead(_:_:)``.
    case read(Int, budget: Int)
    /// Wait for the owner: the step's deadline starts now.
    case waitForOwner
    /// Every member is settled.
    case finish
    /// Nothing to do.
    case ignore
  }

  /// The selection, for messages.
  let selection: Selection
  /// The members' targets, in the order asked.
  let targets: [String]
  private(set) var members: [Member]
  /// The bytes still allowed.
  private(set) var remaining: Int
  /// Why the request as a whole failed, if it did.
  private(set) var failure: X11Error?
  /// Whether the owner's `SelectionNotify` for `MULTIPLE` came: when it has not, the owner
  /// may still write into the request's properties, and they are not used again.
  private(set) var replyCame = false
  /// Whether the owner's answer to the request is still expected.
  private(set) var isAwaitingReply = true

  init(selection: Selection, targets: [String], budget: Int) {
    self.selection = selection
    self.targets = targets
    members = Array(repeating: .waiting, count: targets.count)
    remaining = budget
  }

  /// The owner's `SelectionNotify` for `MULTIPLE`.
  mutating func replied(_ reply: Reply) -> Action {
    guard isAwaitingReply else { return .ignore }
    isAwaitingReply = false
    replyCame = true
    switch reply {
    case .converted(let converted) where converted.count == members.count:
      for index in members.indices where members[index] == .waiting {
        members[index] =
          converted[index]
          ? .answered : .failed(.refused(selection: selection, target: targets[index]))
      }
    case .converted:
      fail(.malformedReply("the owner's MULTIPLE list has another number of pairs"), emptying: true)
    case .refused:
      fail(.refused(selection: selection, target: "MULTIPLE"), emptying: true)
    case .malformed(let problem):
      fail(.malformedReply(problem), emptying: true)
    }
    return next()
  }

  /// The deadline for the owner's answer passed.
  mutating func timedOut(_ step: String) -> Action {
    guard isAwaitingReply else { return .ignore }
    isAwaitingReply = false
    // The owner may still write into the members' properties: they are left alone.
    fail(.timedOut(step), emptying: false)
    return next()
  }

  /// Member `index` was read: the bytes kept, or why it has none.
  mutating func memberRead(_ index: Int, _ result: Result<Int, X11Error>) -> Action {
    guard members.indices.contains(index), case .reading(let disposal) = members[index] else {
      return .ignore
    }
    switch (disposal, result) {
    case (.keep, .success(let byteCount)):
      members[index] = .kept(byteCount: byteCount)
      remaining = max(0, remaining - byteCount)
    case (.keep, .failure(let error)):
      members[index] = .failed(error)
      // An owner that hangs on one target hangs on the rest: what it wrote is emptied.
      if error.endsCapture { remaining = 0 }
    case (.discard, _):
      members[index] = .notRead
    case (.discardAndRetry, _):
      members[index] = .unanswered
    }
    return next()
  }

  private mutating func fail(_ error: X11Error, emptying: Bool) {
    failure = error
    for index in members.indices where members[index] == .waiting {
      members[index] = emptying ? .stale : .unanswered
    }
  }

  /// The next step, members strictly in order.
  private mutating func next() -> Action {
    for index in members.indices {
      switch members[index] {
      case .kept, .failed, .notRead, .unanswered:
        continue
      case .reading:
        return .ignore
      case .waiting:
        return .waitForOwner
      case .answered where remaining > 0:
        members[index] = .reading(.keep)
        return .read(index, budget: remaining)
      case .answered:
        members[index] = .reading(.discard)
        return .read(index, budget: 0)
      case .stale:
        members[index] = .reading(.discardAndRetry)
        return .read(index, budget: 0)
      }
    }
    return .finish
  }
}

extension X11Error {
  /// Whether this failure of one target ends a capture: an owner that hangs on one target
  /// hangs on the rest, and one that is gone answers none.
  var endsCapture: Bool {
    switch self {
    case .timedOut, .noOwner, .ownerChanged, .connectionLost: true
    default: false
    }
  }
}
