import FerryProtocol
import FerrySystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The newest report of each `ferry sync` process, for `status`: a process that ended takes
/// its links with it.
final class SyncReports: Sendable {
  private let reports = TrackedMutex<[Int32: [SyncLinkStatus]]>([:])

  /// Keeps `links` as what `process` reports now.
  func note(_ links: [SyncLinkStatus], from process: Int32) {
    reports.withLock { $0[process] = links }
  }

  /// The links of the processes still running, by process; `nil` when there are none.
  var links: [SyncLinkStatus]? {
    let all = reports.withLock { reports in
      reports = reports.filter { kill($0.key, 0) == 0 || errno == EPERM }
      return reports.sorted { $0.key < $1.key }.flatMap(\.value)
    }
    return all.isEmpty ? nil : all
  }
}
