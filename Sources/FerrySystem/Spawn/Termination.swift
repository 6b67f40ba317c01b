import CFerrySystem

/// How a child ended, from its wait status.
public enum Termination: Hashable, Sendable {
  /// It called `exit` with this status.
  case exited(CInt)
  /// A signal with this number ended it.
  case signalled(CInt)

  /// Decodes a status from `waitpid(2)` (`WIFEXITED`, `WEXITSTATUS`, `WTERMSIG`).
  public init(waitStatus status: CInt) {
    self =
      cferry_wait_exited(status) != 0
      ? .exited(cferry_wait_exit_status(status)) : .signalled(cferry_wait_signal(status))
  }
}
