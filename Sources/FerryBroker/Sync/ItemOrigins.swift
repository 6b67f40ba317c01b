import FerryProtocol
import FerrySystem
import Pasteboard

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Each pasteboard's current item's ``ItemOrigin``, and the broker's Lamport clock: the
/// broker's side of `ferry sync` (docs/SYNC.md, "No loops, one answer").
///
/// A local copy — an application's, `pbcopy`'s — is stamped the first time its origin is asked
/// for (its watch event, or a synchronized write comparing against it) with this broker's node,
/// its change count and one more than the clock. Stamping late gives the same order as stamping
/// at the copy: the clock only moves forward, and anything compared with the copy stamps it
/// first. A copy `ferry sync` writes keeps the origin it came with, and moves the clock up to it.
final class ItemOrigins: Sendable {
  private struct Stamp {
    var changeCount: Int
    var origin: ItemOrigin
  }

  private struct State {
    var clock = 0
    var stamps: [Pasteboard.Name: Stamp] = [:]
  }

  /// This broker run's node: new at every start, so an origin is never reused after a restart.
  let node = UUID().uuidString.lowercased()
  private let state = TrackedMutex(State())

  /// The origin of `board`'s item at `changeCount`, stamped now if it is a local copy not
  /// stamped yet; `nil` when the board is empty.
  func origin(of board: Pasteboard, at changeCount: Int) -> ItemOrigin? {
    state.withLock { state in stamp(board, at: changeCount, in: &state) }
  }

  private func stamp(_ board: Pasteboard, at changeCount: Int, in state: inout State)
    -> ItemOrigin?
  {
    if let stamp = state.stamps[board.name], stamp.changeCount == changeCount {
      return stamp.origin
    }
    guard board.changeCount == changeCount, !board.items.isEmpty else { return nil }
    state.clock += 1
    let origin = ItemOrigin(node: node, change: changeCount, clock: state.clock)
    state.stamps[board.name] = Stamp(changeCount: changeCount, origin: origin)
    return origin
  }

  /// Writes `items`, which came from another machine with `origin`, when `origin` is greater
  /// than the current item's: the compare and the write are one step against any other writer.
  ///
  /// - Returns: The change count after, and whether the items were written.
  func write(_ items: [PasteboardItem], from origin: ItemOrigin, to board: Pasteboard)
    -> (changeCount: Int, applied: Bool)
  {
    while true {
      let count = board.changeCount
      let admitted = state.withLock { state -> Bool in
        state.clock = max(state.clock, origin.clock)
        if let current = stamp(board, at: count, in: &state), origin <= current { return false }
        // Noted before the write, so its watch event finds the origin and never stamps it.
        state.stamps[board.name] = Stamp(changeCount: count + 1, origin: origin)
        return true
      }
      guard admitted else { return (count, false) }
      if let written = board.write(items, ifChangeCountIs: count) { return (written, true) }
      // Another writer came between: compare again with its item.
    }
  }

  /// Moves the clock up to `clock`, a clock seen on a link.
  ///
  /// - Returns: The clock now.
  func observe(_ clock: Int?) -> Int {
    state.withLock { state in
      if let clock { state.clock = max(state.clock, clock) }
      return state.clock
    }
  }
}
