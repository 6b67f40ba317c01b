/// How pushing one copy went (`ferry sync --once`).
public enum SyncOutcome: Sendable, Hashable {
  /// The other broker took it.
  case applied
  /// The other broker had a newer copy: this one went to its history only.
  case keptInHistory
  /// The other end did not take it (`tooLarge` there).
  case declined(String)
  /// It was not sent, for this reason.
  case skipped(SyncFilter.Reason)
  /// There was nothing to send.
  case empty
  /// Sent, waiting for the answer (with the offer's id).
  case sent(Int)

  /// The offer's id while waiting for its answer.
  var offerID: Int? {
    if case .sent(let id) = self { return id }
    return nil
  }
}
