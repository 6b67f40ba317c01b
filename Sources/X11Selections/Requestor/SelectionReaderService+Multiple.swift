import FoundationEssentials

/// What one `MULTIPLE` request got: each member's outcome, in the order asked.
struct MultipleReadResult: Sendable {
  /// One member's outcome.
  enum Member: Sendable {
    /// The owner's reply, within the budget.
    case data(SelectionData)
    /// No data, for this reason.
    case failed(X11Error)
    /// Emptied and dropped: the budget was spent, or the owner hung on an earlier member.
    case notRead
    /// The request failed before the owner answered it: ask for it on its own.
    case unanswered
  }

  var members: [Member]
  /// Why the request as a whole failed, if it did.
  var failure: X11Error?
}

extension SelectionReaderService {
  /// One `MULTIPLE` request in flight: its pair list, and the members' reads, one at a time.
  final class PendingMultiple {
    let selection: XAtom
    /// The property holding the `ATOM_PAIR` list.
    let listProperty: XAtom
    let conversion: MultipleConversion
    let stepTimeout: Duration
    let once: Once<MultipleReadResult>
    var read: MultipleRead
    var timer: UUID?
    /// The replies kept, by member.
    var replies: [Int: SelectionData] = [:]
    /// The members whose property a read took over (it cleans the property up).
    var started: Set<Int> = []

    init(
      selection: XAtom, listProperty: XAtom, conversion: MultipleConversion, stepTimeout: Duration,
      read: MultipleRead, once: Once<MultipleReadResult>
    ) {
      self.selection = selection
      self.listProperty = listProperty
      self.conversion = conversion
      self.stepTimeout = stepTimeout
      self.read = read
      self.once = once
    }
  }

  /// Asks the owner of `selection` for all `targets` in one `MULTIPLE` request and reads the
  /// members in order within `budget` bytes (ICCCM §2.6.2).
  func startMultiple(
    selection: XAtom, targets: [String], stepTimeout: Duration, budget: Int,
    expectedOwner: SelectionOwnership? = nil, once: Once<MultipleReadResult>
  ) {
    // Every round trip before the look at the owner, as in `start`.
    let time = requestTime(for: expectedOwner)
    let listProperty = allocateProperty()
    let conversion = MultipleConversion(
      requesting: connection.atoms(targets).map { .init(target: $0, property: allocateProperty()) })
    guard checkOwner(of: selection, expected: expectedOwner, once: once) != nil else {
      freeProperties += [listProperty] + conversion.pairs.map(\.property)
      return
    }
    for pair in conversion.pairs { connection.deleteProperty(of: session.window, pair.property) }
    connection.setProperty(
      of: session.window, listProperty, type: connection.atoms[.atomPair],
      values: conversion.atoms.map(\.rawValue))
    let multiple = PendingMultiple(
      selection: selection, listProperty: listProperty, conversion: conversion,
      stepTimeout: stepTimeout,
      read: MultipleRead(
        selection: connection.selection(named: selection) ?? "?", targets: targets, budget: budget),
      once: once)
    multiples.append(multiple)
    convert(selection, to: connection.atoms[.multiple], into: listProperty, time: time)
    perform(.waitForOwner, for: multiple)
  }

  /// A `SelectionNotify` that answers a `MULTIPLE` request; `false` when it is for none.
  func handleMultiple(_ notify: X11Event.SelectionNotify) -> Bool {
    guard notify.target == connection.atoms[.multiple] else { return false }
    let waiting = multiples.filter { $0.read.isAwaitingReply && $0.selection == notify.selection }
    guard
      let multiple = waiting.first(where: { $0.listProperty == notify.property }) ?? waiting.first
    else { return false }
    guard notify.property != .none else {
      perform(multiple.read.replied(.refused), for: multiple)
      return true
    }
    // The list is read where it was written, whatever property the owner named.
    perform(multiple.read.replied(readList(of: multiple)), for: multiple)
    return true
  }

  /// The pair list the owner left: which members it converted.
  private func readList(of multiple: PendingMultiple) -> MultipleRead.Reply {
    guard let list = connection.property(of: session.window, multiple.listProperty, delete: false)
    else {
      return .malformed("the owner answered MULTIPLE but its ATOM_PAIR list is gone")
    }
    guard list.format == 32, list.type == connection.atoms[.atomPair] || list.type == .atom else {
      return .malformed(
        "the owner rewrote the MULTIPLE list as \(connection.name(list.type) ?? "?")/\(list.format)"
      )
    }
    var conversion = multiple.conversion
    guard conversion.readReply(list.values.map(XAtom.init(rawValue:))) else {
      return .malformed("the owner's MULTIPLE list is not the one asked for")
    }
    return .converted(conversion.outcomes.map { $0 == .succeeded })
  }

  /// A member's read ended.
  func memberRead(
    _ multiple: PendingMultiple, _ index: Int, _ result: Result<SelectionData, X11Error>
  ) {
    let action = multiple.read.memberRead(index, result.map(\.byteCount))
    if case .kept = multiple.read.members[index], case .success(let reply) = result {
      multiple.replies[index] = reply
    }
    perform(action, for: multiple)
  }

  private func perform(_ action: MultipleRead.Action, for multiple: PendingMultiple) {
    switch action {
    case .read(let index, let budget):
      session.cancelTimer(multiple.timer)
      multiple.started.insert(index)
      let pair = multiple.conversion.pairs[index]
      let request = Pending(
        selection: multiple.selection, target: pair.target, property: pair.property, sink: .memory,
        stepTimeout: multiple.stepTimeout,
        read: SelectionRead(target: multiple.read.targets[index], budget: budget),
        completion: .member(multiple, index: index))
      pending[pair.property] = request
      readReply(of: request)
    case .waitForOwner:
      session.cancelTimer(multiple.timer)
      let step = "waiting for the owner of \(multiple.read.selection) to answer MULTIPLE"
      multiple.timer = session.schedule(after: multiple.stepTimeout) { session in
        session.reader.perform(multiple.read.timedOut(step), for: multiple)
      }
    case .finish:
      finish(multiple)
    case .ignore:
      break
    }
  }

  /// Forgets `multiple` and answers its caller. Its properties are used again only when the
  /// owner has answered: one that did not may still write into them.
  private func finish(_ multiple: PendingMultiple) {
    session.cancelTimer(multiple.timer)
    multiples.removeAll { $0 === multiple }
    if multiple.read.replyCame {
      for (index, pair) in multiple.conversion.pairs.enumerated()
      where !multiple.started.contains(index) {
        connection.deleteProperty(of: session.window, pair.property)
        freeProperties.append(pair.property)
      }
      connection.deleteProperty(of: session.window, multiple.listProperty)
      freeProperties.append(multiple.listProperty)
    }
    let members = multiple.read.members.enumerated().map {
      index, member -> MultipleReadResult.Member in
      switch member {
      case .kept: multiple.replies[index].map { .data($0) } ?? .notRead
      case .failed(let error): .failed(error)
      case .unanswered: .unanswered
      default: .notRead
      }
    }
    multiple.once.resume(
      returning: MultipleReadResult(members: members, failure: multiple.read.failure))
  }
}
