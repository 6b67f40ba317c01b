import FerrySystem
import Testing

/// The job queue both connection threads run (X11's and Wayland's): a job wakes the thread,
/// the thread takes the jobs in order, and an ended queue refuses the next.
@Suite struct ConnectionJobsTests {
  final class Log: Sendable {
    let entries = TrackedMutex<[Int]>([])
  }

  @Test func jobsWakeTheThreadAndRunInOrderUntilTheQueueEnds() throws {
    let jobs = try ConnectionJobs<Log>()
    let log = Log()
    var entries = [PollEntry(jobs.readEnd, for: .readable)]
    #expect(try Poll.wait(&entries, until: .now) == 0, "nothing queued, nothing to wake for")
    for number in 1...3 {
      #expect(jobs.submit { log in log.entries.withLock { $0.append(number) } })
    }
    entries = [PollEntry(jobs.readEnd, for: .readable)]
    #expect(try Poll.wait(&entries, until: .now) == 1, "a job wakes the thread")
    jobs.drain()
    for job in jobs.take() { job(log) }
    #expect(log.entries.withLock { $0 } == [1, 2, 3])
    #expect(jobs.take().isEmpty, "taken once")

    #expect(jobs.submit { log in log.entries.withLock { $0.append(4) } })
    for job in jobs.take(ending: true) { job(log) }
    #expect(jobs.hasEnded)
    #expect(!jobs.submit { log in log.entries.withLock { $0.append(5) } }, "refused once ended")
    #expect(jobs.take().isEmpty)
    #expect(log.entries.withLock { $0 } == [1, 2, 3, 4])
  }
}
