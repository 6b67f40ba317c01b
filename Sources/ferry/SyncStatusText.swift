import FerryProtocol

#if canImport(Glibc)
  import Glibc
#endif

/// The `sync:` lines of `ferry status`: per link, its state and since when, what answers,
/// the last copies sent and received, what was skipped and why, the last error. Never a
/// payload: the status holds none.
///
/// ```
/// desk  connected 2h13m (ssh pid 4242; ferry 1.0 on desk, display-0)
///       sent #815 12 s ago, received #812 3 min ago; skipped: 2 concealed, 1 tooLarge
/// ```
enum SyncStatusText {
  /// Seconds since 1970.
  static var now: Double {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  /// The lines for `links` at `now`.
  static func lines(_ links: [SyncLinkStatus], now: Double) -> [String] {
    let width = links.map(\.host.count).max() ?? 0
    var lines: [String] = []
    for link in links {
      let name = link.host + String(repeating: " ", count: width - link.host.count)
      var head = "\(name)  \(link.state)"
      if let retry = link.retryAt, link.state == "reconnecting" {
        head += " in \(duration(max(0, retry - now)))"
      } else {
        head += " \(duration(max(0, now - link.since)))"
      }
      var details: [String] = []
      if let pid = link.sshPID { details.append("ssh pid \(pid)") }
      if let remote = link.remote { details.append(remote) }
      if !details.isEmpty { head += " (\(details.joined(separator: "; ")))" }
      if link.state == "diverged" {
        head +=
          ": both machines copied while apart; neither was overwritten, the next copy joins them"
      }
      lines.append(head)
      let indent = String(repeating: " ", count: width + 2)
      var traffic: [String] = []
      if let sent = link.lastSent {
        traffic.append("sent #\(sent.change) \(duration(max(0, now - sent.at))) ago")
      }
      if let received = link.lastReceived {
        traffic.append("received #\(received.change) \(duration(max(0, now - received.at))) ago")
      }
      var line = traffic.joined(separator: ", ")
      if !link.skipped.isEmpty {
        let skipped = link.skipped.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
        line += (line.isEmpty ? "" : "; ") + "skipped: " + skipped.joined(separator: ", ")
      }
      if !line.isEmpty { lines.append(indent + line) }
      if let error = link.error, link.state != "connected" {
        lines.append(indent + "last error: \(error)")
      }
    }
    return lines
  }

  /// `12 s`, `3 min`, `2h13m`.
  static func duration(_ seconds: Double) -> String {
    let whole = Int(seconds.rounded())
    if whole < 60 { return "\(whole) s" }
    if whole < 3600 { return "\(whole / 60) min" }
    let minutes = (whole % 3600) / 60
    return "\(whole / 3600)h\(minutes < 10 ? "0" : "")\(minutes)m"
  }
}
