import Testing

/// Every suite of this target, one test at a time: most tests here are synchronous and do
/// file and SQLite work (fsync included) on the thread that runs them, and run side by side
/// they held both threads of the test process's concurrency pool for seconds, starving the
/// in-process brokers of other suites (their hellos went unanswered).
@Suite(.serialized) enum HistoryTestsInOrder {}
