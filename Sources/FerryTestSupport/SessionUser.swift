import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The user a headless Wayland session and its peers run as.
///
/// sway 1.7 refuses to run as root ("Unable to drop root … refusing to start"), and tests
/// (CI among them) run as root. A test process running as root therefore starts the
/// compositor and every peer as an unprivileged user, ``testUserName`` (`ferrytest`), which it
/// creates on first use (`useradd --system`); one that does not runs them as itself.
public struct SessionUser: Sendable, Equatable {
  /// The user every root test process runs its Wayland sessions as.
  public static let testUserName = "ferrytest"

  public var name: String
  public var uid: uid_t
  public var gid: gid_t

  /// Whether this is the test process's own user (no switch needed).
  public var isCurrent: Bool { uid == geteuid() }

  /// The user the sessions of this test process run as: ``testUserName``, created if missing,
  /// when the process runs as root; the process's own user otherwise.
  ///
  /// - Throws: ``PeerUnavailable`` when `useradd` is not installed, or ``WaylandSessionError``
  ///   when the user cannot be created.
  @available(*, noasync, message: "may run useradd; call it inside DetachedThread.run")
  public static func forSessions() throws -> SessionUser {
    guard geteuid() == 0 else {
      guard let current = lookUp(uid: geteuid()) else {
        throw WaylandSessionError(
          message: "the test process's user \(geteuid()) has no passwd entry")
      }
      return current
    }
    if let existing = lookUp(name: testUserName) { return existing }
    guard Peers.path(of: "/usr/sbin/useradd") != nil else {
      throw PeerUnavailable(program: "useradd (passwd)")
    }
    // A system user with a group of its own, no home and no login: only ever a uid to drop to.
    let result = try PeerProcess.run(
      [
        "/usr/sbin/useradd", "--system", "--user-group", "--no-create-home", "--home-dir",
        "/nonexistent",
        "--shell", "/usr/sbin/nologin", testUserName,
      ], display: nil, timeout: .seconds(30))
    // Another test process may have created it meanwhile (useradd then fails with status 9).
    if let created = lookUp(name: testUserName) { return created }
    throw WaylandSessionError(
      message: "useradd \(testUserName) failed with status \(result.status): \(result.stderrText)")
  }

  static func lookUp(name: String) -> SessionUser? {
    guard let entry = getpwnam(name) else { return nil }
    return SessionUser(name: name, uid: entry.pointee.pw_uid, gid: entry.pointee.pw_gid)
  }

  static func lookUp(uid: uid_t) -> SessionUser? {
    guard let entry = getpwuid(uid) else { return nil }
    return SessionUser(
      name: String(cString: entry.pointee.pw_name), uid: uid, gid: entry.pointee.pw_gid)
  }
}
