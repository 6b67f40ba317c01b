import FoundationEssentials
import SelectionBackendCore

extension SelectionLoop {
  /// Copies `targets` of `offer` within `budget` bytes in all; see
  /// ``X11Display/capture(_:targets:budget:stepTimeout:)``.
  ///
  /// An owner that converts `MULTIPLE` (``SelectionBackendCore/OwnerOffer/convertsMultiple``) is
  /// asked for every target in one request when there is more than one; the targets that
  /// request leaves unanswered (the owner refused it, never answered it, or answered it with a
  /// list that is not the one asked for) are then asked for one by one, as they are of an
  /// owner that does not list it.
  func capture(
    _ offer: OwnerOffer, targets: [OwnerOffer.Target], budget: Int, stepTimeout: Duration
  ) async -> OfferCapture {
    var entries = targets.map { OfferCapture.Entry(target: $0) }
    var remaining = budget
    var single = Array(entries.indices)
    if budget > 0, targets.count > 1, offer.convertsMultiple, !Task.isCancelled {
      single = await captureInOneRequest(
        offer, into: &entries, remaining: &remaining, stepTimeout: stepTimeout)
    }
    for index in single where remaining > 0 {
      // A cancelled capture (its owner was replaced) asks nothing more: the next target would
      // be asked of whoever owns the selection now.
      if Task.isCancelled { break }
      do {
        let data = try await read(
          entries[index].target, of: offer.selection, stepTimeout: stepTimeout,
          byteLimit: remaining,
          expectedOwner: offer.ownership)
        entries[index].data = data
        remaining -= data.count
      } catch {
        record(error, in: &entries[index], role: offer.role, remaining: &remaining)
      }
    }
    return OfferCapture(offer: offer, entries: entries)
  }

  /// Reads `entries`' targets in one `MULTIPLE` request.
  ///
  /// - Returns: The entries to ask for one by one.
  private func captureInOneRequest(
    _ offer: OwnerOffer, into entries: inout [OfferCapture.Entry], remaining: inout Int,
    stepTimeout: Duration
  ) async -> [Int] {
    let targets = entries.map(\.target)
    let result: MultipleReadResult
    do {
      result = try await readMultiple(
        offer.selection, targets: targets.map(\.name), stepTimeout: stepTimeout, budget: remaining,
        expectedOwner: offer.ownership)
    } catch {
      return Array(entries.indices)  // no owner, or no connection: the first single request says so
    }
    var single: [Int] = []
    for (index, member) in result.members.enumerated() {
      switch member {
      case .data(let reply):
        do {
          let data = try await data(of: reply, for: targets[index])
          entries[index].data = data
          remaining -= data.count
        } catch {
          record(error, in: &entries[index], role: offer.role, remaining: &remaining)
        }
      case .failed(let error):
        record(error, in: &entries[index], role: offer.role, remaining: &remaining)
      case .notRead:
        break
      case .unanswered:
        single.append(index)
      }
    }
    return single
  }

  /// Records why `entry` has no data, on the seam for `role`; a failure that ends the capture
  /// spends what is left.
  private func record(
    _ error: any Error, in entry: inout OfferCapture.Entry, role: SelectionRole,
    remaining: inout Int
  ) {
    let failure = error as? X11Error ?? .malformedReply("\(error)")
    entry.failure = BackendError(failure, role: role)
    if failure.endsCapture { remaining = 0 }  // an owner that hangs on one target hangs on the rest
  }

  /// Asks the owner of `selection` for all `targets` in one `MULTIPLE` request; see
  /// ``MultipleRead``.
  func readMultiple(
    _ selection: Selection, targets: [String], stepTimeout: Duration, budget: Int,
    expectedOwner: SelectionOwnership? = nil
  ) async throws -> MultipleReadResult {
    try await withCheckedThrowingContinuation { continuation in
      let once = tracked(Once(continuation))
      submit { session in
        let connection = session.connection
        session.reader.startMultiple(
          selection: connection.atom(selection), targets: targets, stepTimeout: stepTimeout,
          budget: budget, expectedOwner: expectedOwner, once: once)
      }
    }
  }
}
