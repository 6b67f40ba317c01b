import FerryConfiguration
import FerryProtocol
import FerrySystem
import Logging

#if canImport(Glibc)
  import Glibc
#endif

/// `ferry daemon`'s sync links (`sync.hosts`, docs/SYNC.md): `ferry sync HOST…` as a child of
/// the daemon, started once the socket serves and started again, after 1 s doubling up to
/// 60 s, whenever it ends while the broker still answers. The child is the same binary
/// (`/proc/self/exe`), so a link's ssh and its waits never share a thread with the broker;
/// it ends on its own once the broker it follows stops (its watch closes).
struct SyncKeeper: Sendable {
  /// The hosts, as ssh names them.
  var hosts: [String]
  /// The daemon's socket, which the child follows (`FERRY_SOCKET`).
  var socket: SocketPath
  /// The daemon's environment, `DISPLAY` and the ssh agent's socket among it.
  var environment: [String: String]
  /// The effective `sync.*` settings as their environment variables, so that a flag given to
  /// the daemon reaches the child too.
  var settings: [String: String]
  /// The daemon's log: each start and end of the child.
  var logger: Logger

  /// The `sync.*` settings (but the hosts, which are arguments) as environment variables.
  static func settingVariables(_ configuration: EffectiveConfiguration) -> [String: String] {
    [
      ConfigurationKey.syncMaxSize.variable: "\(configuration.number(.syncMaxSize))",
      ConfigurationKey.syncExclude.variable: configuration.names(.syncExclude).joined(
        separator: ","),
      ConfigurationKey.syncPrimary.variable: "\(configuration.toggle(.syncPrimary))",
    ]
  }

  /// Starts keeping the links, on a thread of its own.
  func start() {
    DetachedThread.start(name: "ferry-sync-keeper") { keep() }
  }

  private func keep() {
    var child = environment
    child["FERRY_SOCKET"] = socket.path
    child.merge(settings) { _, setting in setting }
    let launch = ChildLaunch(
      path: "/proc/self/exe", arguments: ["ferry", "sync"] + ["--"] + hosts,
      environment: child.map { "\($0.key)=\($0.value)" },
      descriptors: [
        .open("/dev/null", as: 0, .readOnly), .open("/dev/null", as: 1, .writeOnly),
        .closeAll(from: 3),
      ])
    let hostList = hosts.joined(separator: ", ")
    var wait = 1
    while true {
      let started = SyncLinkClock.now
      let ended: String
      do {
        let process = try launch.spawn()
        logger.info("sync: keeping \(hostList) (ferry sync, pid \(process.rawValue))")
        switch try? process.waitForExit() {
        case .exited(let status): ended = "exited \(status)"
        case .signalled(let signal): ended = "ended by signal \(signal)"
        case nil: ended = "ended"
        }
      } catch {
        ended = "cannot start: \(error)"
      }
      guard SyncBrokerChoice.answers(socket) else { return }
      // A child that ran for a while failed anew, not again: start over from 1 s.
      if SyncLinkClock.now - started > 60 { wait = 1 }
      logger.warning("sync: ferry sync \(ended); started again in \(wait) s")
      var pause = timespec(tv_sec: wait, tv_nsec: 0)
      var left = timespec()
      while nanosleep(&pause, &left) != 0, errno == EINTR { pause = left }
      wait = min(wait * 2, 60)
    }
  }
}

/// Seconds on the monotonic clock, for the keeper's back-off.
private enum SyncLinkClock {
  static var now: Int {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return time.tv_sec
  }
}
