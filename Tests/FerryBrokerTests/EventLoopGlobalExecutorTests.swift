import FerrySystem
import Testing

@testable import FerryBroker

#if canImport(Glibc)
  import Glibc
#endif

/// `ferry daemon`'s global executor: once installed, tasks, default actors and sleeps on the
/// timer thread's clock all continue on the broker's event loops — none of them reaches
/// Dispatch's worker pool, whose monitor would wake the daemon every second.
@Suite struct EventLoopGlobalExecutorTests {
  @Test func tasksActorsAndSleepsRunOnTheBrokersLoops() async {
    // In a process of its own (an exit test): the executor is the whole process's.
    await #expect(processExitsWith: .success) {
      BrokerDaemon.prepareProcess()
      let places = await Task.detached {
        var places = [EventLoopGlobalExecutor.shared.isCurrent]
        try? await Task.sleep(for: .milliseconds(1), clock: .timerThread)  // where a sleep resumes is checked
        places.append(EventLoopGlobalExecutor.shared.isCurrent)
        places.append(await Probe().isOnTheLoops())
        places.append(await Task { EventLoopGlobalExecutor.shared.isCurrent }.value)
        return places
      }.value
      exit(places == [true, true, true, true] ? 0 : 1)
    }
  }

  /// A task started, or resumed, by a job on one of the loops runs on that same loop: handing
  /// it to the next loop would wake a second thread for nothing.
  @Test func aTaskStartedOnALoopStaysOnThatLoop() async {
    await #expect(processExitsWith: .success) {
      BrokerDaemon.prepareProcess()
      let stayed = await Task.detached {
        var stayed: [Bool] = []
        for _ in 0..<10 {
          let outer = EventLoopGlobalExecutor.shared.currentLoop
          let inner = await Task { EventLoopGlobalExecutor.shared.currentLoop }.value
          stayed.append(outer != nil && outer === inner)
        }
        return stayed
      }.value
      exit(stayed.allSatisfy { $0 } ? 0 : 1)
    }
  }

  /// A default actor: its jobs go to the global executor.
  private actor Probe {
    func isOnTheLoops() -> Bool { EventLoopGlobalExecutor.shared.isCurrent }
  }
}
