import FerrySystem

/// How far a pasteboard's changes have been published on the X selection it is bound to,
/// and a wait for a given change to get there.
///
/// A `pbcopy` is acknowledged only once the broker owns the selection with the new copy, as
/// `xclip -i` returns only once it owns it: otherwise a copy made by another program right
/// after `pbcopy` returned could be overtaken by the broker's late `SetSelectionOwner`, and
/// a paste right after it would read the copy before.
final class PublicationGate: Sendable {
  private struct Waiter {
    var count: Int
    var continuation: CheckedContinuation<Bool, Never>
    /// Ends the wait at its limit; cancelled when the change comes first.
    var timer: Task<Void, Never>?
  }

  private struct State {
    var published = 0
    var waiters: [Int: Waiter] = [:]
    var nextWaiter = 0
  }

  private let state = TrackedMutex(State())

  /// Records that every change up to `count` is published, and wakes who waited for it.
  func publish(_ count: Int) {
    let woken = state.withLock { state -> [Waiter] in
      state.published = max(state.published, count)
      let ready = state.waiters.filter { $0.value.count <= state.published }
      for key in ready.keys { state.waiters[key] = nil }
      return Array(ready.values)
    }
    for waiter in woken {
      waiter.timer?.cancel()
      waiter.continuation.resume(returning: true)
    }
  }

  /// The highest change count published so far.
  var published: Int { state.withLock { $0.published } }

  /// Waits until change `count` is published, or `limit` passes.
  ///
  /// - Returns: Whether it was published in time.
  func wait(for count: Int, within limit: Duration) async -> Bool {
    await withCheckedContinuation { continuation in
      let key = state.withLock { state -> Int? in
        guard state.published < count else { return nil }
        state.nextWaiter += 1
        state.waiters[state.nextWaiter] = Waiter(count: count, continuation: continuation)
        return state.nextWaiter
      }
      guard let key else {
        continuation.resume(returning: true)
        return
      }
      let timer = Task {
        do { try await Task.sleep(for: limit, clock: .timerThread) } catch { return }  // published first
        let expired = state.withLock { $0.waiters.removeValue(forKey: key) }
        expired?.continuation.resume(returning: false)
      }
      let published = state.withLock { state -> Bool in
        guard state.waiters[key] != nil else { return true }
        state.waiters[key]?.timer = timer
        return false
      }
      if published { timer.cancel() }
    }
  }
}
