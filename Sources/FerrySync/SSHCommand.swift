/// The command that reaches the other machine: the system `ssh` (the user's keys, agent,
/// `known_hosts`, ProxyJump and ControlMaster; no pairing or port of Ferry's own), run as
/// `ssh -T -o BatchMode=yes … HOST ferry sync --stdio` (docs/SYNC.md, "Setting it up").
public struct SSHCommand: Sendable, Hashable {
  /// The ssh command, split by the shell: `ssh`, or `--ssh`/`FERRY_SSH` (`ssh -F ~/.ssh/other`),
  /// as rsync's `-e`.
  public var ssh: String
  /// The host as the user named it.
  public var host: String
  /// The program on the other machine: `ferry`, or `--remote-ferry`.
  public var remoteFerry: String
  /// What the remote end is told: `--display`, `--primary`.
  public var remoteArguments: [String]

  /// The options Ferry adds after the user's: no terminal (a binary-clean stream), never a
  /// prompt, and a dead link noticed in about 45 seconds.
  public static let options = [
    "-T", "-o", "BatchMode=yes", "-o", "ServerAliveInterval=15", "-o", "ServerAliveCountMax=3",
  ]

  public init(
    ssh: String = "ssh", host: String, remoteFerry: String = "ferry", remoteArguments: [String] = []
  ) {
    self.ssh = ssh
    self.host = host
    self.remoteFerry = remoteFerry
    self.remoteArguments = remoteArguments
  }

  /// The command line the remote shell runs: the program, then `sync --stdio` and the
  /// arguments, each quoted for a POSIX shell.
  public var remoteCommand: String {
    ([remoteFerry] + (["sync", "--stdio"] + remoteArguments).map(Self.quoted)).joined(
      separator: " ")
  }

  /// `/bin/sh -c 'exec SSH "$@"' ferry-ssh OPTIONS HOST COMMAND`: the shell splits the ssh
  /// command as a user typed it, and finds it on `PATH`.
  public var argumentVector: [String] {
    ["/bin/sh", "-c", "exec \(ssh) \"$@\"", "ferry-ssh"] + Self.options + [
      "--", host, remoteCommand,
    ]
  }

  /// `word` quoted for a POSIX shell when it needs it.
  static func quoted(_ word: String) -> String {
    let plain = word.allSatisfy {
      $0.isASCII && ($0.isLetter || $0.isNumber || "-_./:=@%+,".contains($0))
    }
    if plain, !word.isEmpty { return word }
    return "'" + word.replacing("'", with: "'\\''") + "'"
  }
}
