// Every test target that imports FerryTestSupport also sees FerrySystem, `DetachedThread`
// among it: its `run` is the one way a test waits for blocking work (a process, a pipe, a
// blocking client) without holding a thread of Swift concurrency's pool, which the code
// under test needs.
@_exported import FerrySystem
