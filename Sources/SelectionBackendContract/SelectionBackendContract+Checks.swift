import FerryTestSupport
import Foundation
import Pasteboard
import SelectionBackendCore
import Testing
import UniformTypeIdentifiers

extension SelectionBackendContract {
  static func ownServesTheItemInOrder(_ role: SelectionRole, _ driver: some SelectionBackendDriver)
    async throws
  {
    let item = item("served in order")
    try await driver.backend.own(role, item: item)
    let listed = try #require(try await driver.peerListsTargets(role), "a peer sees an owner")
    // The item's own representations; the conversions its types bring are the backend's to
    // offer or not.
    let types = [recordType, UTType.html, .utf8PlainText]
    let names = types.map(driver.targetName(for:))
    let positions = names.map { listed.firstIndex(of: $0) }
    #expect(!positions.contains(nil), "every representation is offered: \(names) in \(listed)")
    let found = positions.compactMap { $0 }
    #expect(found == found.sorted(), "in the item's order: \(names) in \(listed)")
    for (name, type) in zip(names, types) {
      let expected = try await item.data(for: type)
      #expect(try await driver.peerPastes(role, name) == expected, "\(name) reads its bytes")
    }
  }

  static func aNewOwnerCallsOnLostOnce(_ role: SelectionRole, _ driver: some SelectionBackendDriver)
    async throws
  {
    let log = OwnerChangeLog(driver.backend.ownerChanges(of: [role]))
    let lost = Shared(0)
    try await driver.backend.own(role, item: item("to be taken"), onlyIfUnowned: false) {
      lost.withLock { $0 += 1 }
    }
    let mine = await log.first { $0.role == role && $0.kind == .newOwner }
    #expect(mine?.isOwnedByThisProcess == true, "its own taking comes first: \(log.all)")
    try await driver.peerCopies(role, [ContractTarget("text/plain", Data("a peer's".utf8))])
    #expect(await Deadline.wait(for: .seconds(10)) { lost.current >= 1 }, "onLost is called")
    let peer = await log.first {
      $0.role == role && $0.kind == .newOwner && !$0.isOwnedByThisProcess
    }
    #expect(peer != nil, "the new owner is among the owner changes: \(log.all)")
    // A second peer's copy is another change; the backend lost the selection once only.
    let seen = log.all.count
    try await driver.peerCopies(role, [ContractTarget("text/plain", Data("another's".utf8))])
    let again = await log.first(after: seen) {
      $0.role == role && $0.kind == .newOwner && !$0.isOwnedByThisProcess
    }
    #expect(again != nil, "the second peer's copy is reported too: \(log.all)")
    #expect(lost.current == 1, "onLost is called once")
  }

  static func ownChangesOfThisProcessAreReported(
    _ role: SelectionRole, _ driver: some SelectionBackendDriver
  ) async throws {
    let log = OwnerChangeLog(driver.backend.ownerChanges(of: [role]))
    try await driver.peerCopies(role, [ContractTarget("text/plain", Data("a peer's".utf8))])
    let peer = await log.first { $0.role == role && $0.kind == .newOwner }
    #expect(peer?.isOwnedByThisProcess == false, "a peer's copy is not this process's: \(log.all)")
    let before = log.all.count
    try await driver.backend.own(role, item: item("mine"))
    let mine = await log.first(after: before) { $0.role == role && $0.kind == .newOwner }
    #expect(mine?.isOwnedByThisProcess == true, "this process's own is reported: \(log.all)")
    if let mine, let peer { #expect(mine.owner != peer.owner, "another owner token") }
  }

  static func disownGivesUpAndIsReported(
    _ role: SelectionRole, _ driver: some SelectionBackendDriver
  ) async throws {
    let log = OwnerChangeLog(driver.backend.ownerChanges(of: [role]))
    try await driver.backend.own(role, item: item("given up"))
    #expect(await peerSeesAnOwner(role, driver, true), "a peer sees the backend's copy")
    _ = await log.first { $0.role == role && $0.kind == .newOwner }
    let before = log.all.count
    await driver.backend.disown(role)
    #expect(await peerSeesAnOwner(role, driver, false), "a peer sees no owner after disown")
    let gone = await log.first(after: before) { $0.role == role && $0.kind == .ownerGone }
    #expect(gone != nil, "giving the selection up is an owner change: \(log.all)")
  }

  static func anUnownedRoleHasNoOffer(_ role: SelectionRole, _ driver: some SelectionBackendDriver)
    async throws
  {
    #expect(await peerSeesAnOwner(role, driver, false), "the driver's reset leaves no owner")
    #expect(
      await Deadline.wait(for: .seconds(10)) { (try? await driver.backend.owner(of: role)) == nil },
      "owner(of:) is nil")
    await #expect(throws: BackendError.noOwner(role)) {
      try await driver.backend.offer(of: role, stepTimeout: step)
    }
  }

  static func offerKeepsTheOwnersOrder(_ role: SelectionRole, _ driver: some SelectionBackendDriver)
    async throws
  {
    let targets = [
      ContractTarget("application/x-ferry-contract-zebra", Data("z".utf8)),
      ContractTarget("text/html", Data("<b>h</b>".utf8)),
      ContractTarget("application/x-ferry-contract-aardvark", Data("a".utf8)),
      ContractTarget("image/png", Data([0x89, 0x50, 0x4E, 0x47])),
    ]
    try await driver.peerCopies(role, targets)
    let offer = try await driver.backend.offer(of: role, stepTimeout: step)
    let names = targets.map(\.name)
    #expect(offer.role == role)
    #expect(
      offer.targets.map(\.name).filter(names.contains) == names,
      "the owner's order: \(offer.targets.map(\.name))")
  }

  static func captureKeepsToItsBudget(_ role: SelectionRole, _ driver: some SelectionBackendDriver)
    async throws
  {
    let small = ContractTarget("application/x-ferry-contract-small", Data("sixteen bytes!!!".utf8))
    let large = ContractTarget.pattern("application/x-ferry-contract-large", count: 8192)
    try await driver.peerCopies(role, [small, large])
    let offer = try await driver.backend.offer(of: role, stepTimeout: step)
    let wanted = offer.targets.filter { [small.name, large.name].contains($0.name) }
    #expect(wanted.map(\.name) == [small.name, large.name])
    let budget = 1024
    let capture = await driver.backend.capture(
      offer, targets: wanted, budget: budget, stepTimeout: step)
    #expect(capture.byteCount <= budget)
    let first = capture.entries.first { $0.target.name == small.name }
    #expect(first?.data == small.data, "what fits is captured")
    let over = try #require(capture.entries.first { $0.target.name == large.name })
    #expect(over.data == nil, "what does not fit has no data")
    guard case .tooLarge? = over.failure else {
      Issue.record("what does not fit says so (tooLarge): \(String(describing: over.failure))")
      return
    }
  }

  static func aStalledOwnerTimesOut(_ role: SelectionRole, _ driver: some SelectionBackendDriver)
    async throws
  {
    let slow = ContractTarget.silent("application/x-ferry-contract-silent")
    try await driver.peerCopies(role, [slow, ContractTarget("text/html", Data("<b>x</b>".utf8))])
    let offer = try await driver.backend.offer(of: role, stepTimeout: step)
    let wanted = offer.targets.filter { $0.name == slow.name }
    #expect(wanted.count == 1)
    let backend = driver.backend
    let (capture, elapsed) = await driver.waitingOutStepTimeouts {
      await backend.capture(offer, targets: wanted, budget: 1 << 20, stepTimeout: stallTimeout)
    }
    let entry = try #require(capture.entries.first)
    #expect(entry.data == nil)
    guard case .timedOut? = entry.failure else {
      Issue.record("the entry fails with timedOut: \(String(describing: entry.failure))")
      return
    }
    #expect(elapsed >= stallTimeout * 0.9, "not before the step timeout: \(elapsed)")
    if driver.movesTheClock {
      #expect(
        elapsed <= stallTimeout * 1.1, "at the step timeout, on the driver's clock: \(elapsed)")
    }
    // The next owner is offered and captured as if nothing happened.
    let next = ContractTarget("application/x-ferry-contract-next", Data("next".utf8))
    try await driver.peerCopies(role, [next])
    let after = try await driver.backend.offer(of: role, stepTimeout: step)
    let again = await driver.backend.capture(
      after, targets: after.targets.filter { $0.name == next.name }, budget: 1 << 20,
      stepTimeout: step)
    #expect(again.entries.map(\.data) == [next.data], "the next capture works")
  }

  static func aStartedTransferIsFinished(
    _ role: SelectionRole, _ driver: some SelectionBackendDriver
  ) async throws {
    // Large enough that X11 sends it incrementally (INCR) and a Wayland pipe fills many times.
    let large = ContractTarget.pattern("application/octet-stream", count: 3 << 20)
    try await driver.peerCopies(role, [large])
    let offer = try await driver.backend.offer(of: role, stepTimeout: step)
    let wanted = offer.targets.filter { $0.name == large.name }
    #expect(wanted.count == 1)
    let capture = await driver.backend.capture(
      offer, targets: wanted, budget: 256 << 10, stepTimeout: step)
    for entry in capture.entries {
      #expect(
        entry.data == nil || entry.data == large.data,
        "no part recorded as the whole: \(entry.data?.count ?? 0) bytes")
    }
    #expect(capture.entries.first?.data == nil, "3 MiB is past a budget of 256 KiB")
    // The owner was not left in a transfer half done: it serves the whole to the next reader.
    let pasted = try await driver.peerPastes(role, large.name)
    #expect(pasted?.count == large.data?.count, "the owner still serves all of it")
    #expect(pasted == large.data)
  }

  static func aTransferStalledMidway(_ role: SelectionRole, _ driver: some SelectionBackendDriver)
    async throws
  {
    guard let target = try await driver.peerStallsMidTransfer(role) else { return }
    let offer = try await driver.backend.offer(of: role, stepTimeout: step)
    let wanted = offer.targets.filter { $0.name == target }
    #expect(wanted.count == 1, "\(offer.targets.map(\.name))")
    let backend = driver.backend
    let (capture, elapsed) = await driver.waitingOutStepTimeouts {
      await backend.capture(offer, targets: wanted, budget: 1 << 20, stepTimeout: stallTimeout)
    }
    let entry = try #require(capture.entries.first)
    #expect(
      entry.data == nil, "the part that came is not the whole: \(entry.data?.count ?? 0) bytes")
    guard case .timedOut? = entry.failure else {
      Issue.record("the entry fails with timedOut: \(String(describing: entry.failure))")
      return
    }
    #expect(elapsed >= stallTimeout * 0.9, "not before the step timeout: \(elapsed)")
  }

  static func readStreamsTheBytes(_ role: SelectionRole, _ driver: some SelectionBackendDriver)
    async throws
  {
    let payload = ContractTarget.pattern("application/octet-stream", count: 1 << 20)
    try await driver.peerCopies(role, [payload])
    let pipe = Pipe()
    // The reader runs on a thread of its own from the start: a backend that writes to the
    // descriptor from the concurrency pool must find it reading.
    let read = Shared<Data?>(nil)
    let reader = pipe.fileHandleForReading
    let started = DetachedThread.start(name: "contract-read") {
      let bytes = (try? reader.readToEnd()) ?? Data()
      read.withLock { $0 = bytes }
    }
    try #require(started)
    do {
      try await driver.backend.read(
        role, target: payload.name, into: pipe.fileHandleForWriting.fileDescriptor,
        stepTimeout: step)
    } catch {
      try? pipe.fileHandleForWriting.close()
      throw error
    }
    try pipe.fileHandleForWriting.close()
    #expect(await Deadline.wait(for: .seconds(30)) { read.current != nil })
    let bytes = read.current ?? Data()
    #expect(bytes.count == payload.data?.count)
    #expect(bytes == payload.data, "the owner's bytes, through a pipe read as they arrive")
  }

  static func errorsAreMapped(_ role: SelectionRole, _ driver: some SelectionBackendDriver)
    async throws
  {
    let missing = "application/x-ferry-contract-missing"
    let devNull = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/null"))
    defer { try? devNull.close() }
    await #expect(throws: BackendError.noOwner(role)) {
      try await driver.backend.read(
        role, target: missing, into: devNull.fileDescriptor, stepTimeout: step)
    }
    try await driver.peerCopies(role, [ContractTarget("text/html", Data("<b>h</b>".utf8))])
    await #expect(throws: BackendError.refused(role, target: missing)) {
      try await driver.backend.read(
        role, target: missing, into: devNull.fileDescriptor, stepTimeout: step)
    }
    let offer = try await driver.backend.offer(of: role, stepTimeout: step)
    let capture = await driver.backend.capture(
      offer, targets: [OwnerOffer.Target(name: missing, type: .data)], budget: 1 << 20,
      stepTimeout: step)
    #expect(capture.entries.first?.data == nil)
    #expect(
      capture.entries.first?.failure == .refused(role, target: missing),
      "a capture's entry says refused: \(String(describing: capture.entries.first?.failure))")
  }

  static func closeGivesUpOwnedSelections(
    _ role: SelectionRole, _ driver: some SelectionBackendDriver
  ) async throws {
    let closing = try await driver.makeBackend()
    try await closing.own(role, item: item("closed"))
    #expect(await peerSeesAnOwner(role, driver, true), "a peer sees the copy first")
    closing.close()
    #expect(await peerSeesAnOwner(role, driver, false), "a peer sees no owner after close()")
  }

  static func takeOnlyIfUnownedIsRefused(
    _ role: SelectionRole, _ driver: some SelectionBackendDriver
  ) async throws {
    let peers = ContractTarget("text/html", Data("<b>the peer's</b>".utf8))
    try await driver.peerCopies(role, [peers])
    await #expect(throws: BackendError.ownershipRefused(role)) {
      try await driver.backend.own(role, item: item("mine"), onlyIfUnowned: true)
    }
    #expect(try await driver.peerPastes(role, peers.name) == peers.data, "the peer's copy stays")
    try await driver.reset(role)
    try await driver.backend.own(role, item: item("unowned"), onlyIfUnowned: true)
    #expect(await peerSeesAnOwner(role, driver, true), "a selection nobody owns is taken")
  }

  static func rolesAreKept(_ role: SelectionRole, _ driver: some SelectionBackendDriver)
    async throws
  {
    let backend = driver.backend
    #expect(driver.expectedRoles.isSubset(of: backend.roles), "\(backend.roles)")
    #expect(backend.roles.contains(role))
    let text = driver.targetName(for: .utf8PlainText)
    try await backend.own(role, item: item("on \(role)"))
    #expect(try await driver.peerPastes(role, text) == Data("on \(role)".utf8))
    // A drag's selection is read by its drop target during a drag, never by a paste.
    for other in driver.expectedRoles where other != role && other != .drag {
      #expect(
        try await driver.peerPastes(other, text) != Data("on \(role)".utf8),
        "\(other) is a selection of its own")
    }
    for lacking in SelectionRole.allCases where !backend.roles.contains(lacking) {
      await #expect(throws: BackendError.unsupported(lacking)) {
        try await backend.own(lacking, item: item("nowhere"))
      }
      await #expect(throws: BackendError.unsupported(lacking)) {
        try await backend.offer(of: lacking, stepTimeout: step)
      }
    }
  }
}
