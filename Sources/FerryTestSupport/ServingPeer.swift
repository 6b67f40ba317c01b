/// Running a peer that forks a server and returns, such as `wl-copy` (which serves its
/// selection from the background until it is replaced) or `xclip -in`: its output goes through
/// files, so the server it leaves holds none of the result's pipes, and the result comes as
/// soon as the peer returns (rather than after ``PeerProcess``'s wait for the pipes' end).
enum ServingPeer {
  /// The shell script `sh -c` runs, with the program and its arguments as `$@`: they write to
  /// temporary files, printed once the program returns, and its status is the script's.
  static let script = """
    out="$(mktemp)" && err="$(mktemp)" || exit 125
    "$@" >"$out" 2>"$err"
    status=$?
    cat "$out"; cat "$err" >&2; rm -f "$out" "$err"
    exit "$status"
    """

  /// The command that runs `program` (an absolute path) with `arguments` so.
  static func command(_ program: String, _ arguments: some Sequence<String>) -> [String] {
    ["/bin/sh", "-c", script, "sh", program] + arguments
  }
}
