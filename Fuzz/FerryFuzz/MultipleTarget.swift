@testable import X11Selections

/// `MULTIPLE` on both sides. The owner's pair list (`MultipleConversion`): read only when
/// whole, answered with one entry per pair, and the answer, read back by a requestor that
/// asked for the same pairs, gives the outcomes the owner recorded. The requestor's read
/// (`MultipleRead`), driven by fuzzed replies, timeouts and member reads: each member is read
/// at most once, one at a time, with all or none of what is left of the budget, and the read
/// finishes once, with every member settled.
let multipleTarget = FuzzTarget(name: "multiple") { bytes in
  var input = FuzzInput(bytes)
  if input.bool() {
    conversion(&input)
  } else {
    multipleRead(&input)
  }
}

private func conversion(_ input: inout FuzzInput) {
  let atoms = (0..<input.choice(9)).map { _ in XAtom(rawValue: UInt(input.choice(6))) }
  guard var owner = MultipleConversion(pairs: atoms) else {
    require(atoms.isEmpty || atoms.count % 2 == 1, "a list of \(atoms.count) atoms was refused")
    return
  }
  require(owner.atoms == atoms, "the pairs read are not the list")
  while !input.isAtEnd { owner.complete(input.choice(6) - 1, succeeded: input.bool()) }
  let reply = owner.replyPairs
  require(reply.count == atoms.count, "an answer of \(reply.count) atoms to \(atoms.count)")
  // A requestor names real properties: a pair whose property is None cannot say how it went.
  guard owner.pairs.allSatisfy({ $0.property != .none }) else { return }
  var requestor = MultipleConversion(requesting: owner.pairs)
  require(requestor.readReply(reply), "the owner's answer was not taken")
  let expected = owner.outcomes.map {
    $0 == .succeeded ? MultipleConversion.Outcome.succeeded : .failed
  }
  require(
    requestor.outcomes == expected,
    "the answer read \(requestor.outcomes), the owner recorded \(owner.outcomes)")
}

private func multipleRead(_ input: inout FuzzInput) {
  let count = input.choice(6) + 1
  let budget = input.size()
  var read = MultipleRead(
    selection: .clipboard, targets: (0..<count).map { "target-\($0)" }, budget: budget)
  var readMembers = Set<Int>()
  var reading: Int?
  var finished = false
  let errors: [X11Error] = [
    .timedOut("fuzzing"), .tooLarge(limit: 1), .noOwner(.clipboard), .malformedReply("fuzzing"),
  ]
  while !input.isAtEnd {
    let action: MultipleRead.Action
    switch input.choice(6) {
    case 0:
      action = read.replied(.converted((0..<input.choice(count + 2)).map { _ in input.bool() }))
    case 1: action = read.replied(input.bool() ? .refused : .malformed("fuzzing"))
    case 2: action = read.timedOut("fuzzing")
    case 3:
      // Mostly the member being read, as the glue reports it.
      let index = input.bool() ? (reading ?? 0) : input.choice(count + 1)
      action = read.memberRead(
        index, input.bool() ? .success(input.size()) : .failure(input.pick(errors)))
      if index == reading && action != .ignore { reading = nil }
    default:
      let index = reading ?? 0
      action = read.memberRead(index, .success(input.size()))
      if reading != nil && action != .ignore { reading = nil }
    }
    switch action {
    case .read(let index, let memberBudget):
      require(reading == nil, "member \(index) read while member \(reading!) is")
      require(readMembers.insert(index).inserted, "member \(index) read twice")
      require(
        memberBudget == 0 || memberBudget == read.remaining,
        "a budget of \(memberBudget) with \(read.remaining) left")
      reading = index
    case .finish:
      require(!finished, "the read finished twice")
      finished = true
      for member in read.members {
        switch member {
        case .kept, .failed, .notRead, .unanswered: break
        default: require(false, "finished with a member \(member)")
        }
      }
    case .waitForOwner:
      require(read.isAwaitingReply, "told to wait with no answer to wait for")
    case .ignore:
      break
    }
    if finished {
      require(action == .ignore || action == .finish, "\(action) after the read finished")
    }
  }
}
