import Testing

/// One promise of `SelectionBackend`'s documentation that the contract checks, one test per
/// promise and role on every backend (docs/SELECTION-BACKENDS.md, "The contract suite").
public enum SelectionBackendPromise: String, CaseIterable, Sendable, Hashable,
  CustomTestStringConvertible
{
  /// `own`: a peer reader is offered the item's representations in the item's order, and
  /// reads each one's bytes.
  case ownServesTheItemInOrder
  /// `own`'s `onLost` is called once when another client takes the selection, and that
  /// owner is among the owner changes (not this process's).
  case aNewOwnerCallsOnLostOnce
  /// The owner changes include this process's own: taking a selection is a new owner that
  /// `isOwnedByThisProcess`.
  case ownChangesOfThisProcessAreReported
  /// `disown` gives the selection up: a peer sees no owner, and the change is reported.
  case disownGivesUpAndIsReported
  /// `offer` of a selection nobody owns throws `BackendError.noOwner`; `owner(of:)` is `nil`.
  case anUnownedRoleHasNoOffer
  /// `offer` lists the owner's targets in the owner's order.
  case offerKeepsTheOwnersOrder
  /// `capture` keeps to its byte budget: what does not fit is an entry without data and with
  /// the reason, `BackendError.tooLarge`.
  case captureKeepsToItsBudget
  /// An owner that never answers costs a capture its step timeout: the entry fails with
  /// `BackendError.timedOut`, not before the step timeout, and the next offer and capture work.
  case aStalledOwnerTimesOutAtTheStepTimeout
  /// A transfer that started is finished or never started: past the budget nothing partial is
  /// recorded as data, and the owner still serves the whole of it to the next reader.
  case aStartedTransferIsFinished
  /// A transfer whose owner stalls midway (X11: after the first INCR chunk; Wayland: after
  /// 4 KiB down the pipe) ends at the step timeout with `BackendError.timedOut` and no data:
  /// the part that came is never recorded as the whole. Checked where the driver's display
  /// server has such a peer.
  case aTransferStalledMidwayRecordsNothing
  /// `read(_:target:into:stepTimeout:)` streams the owner's bytes to a descriptor, a pipe
  /// read as they arrive.
  case readStreamsTheBytes
  /// Errors are the documented ones: a target the owner does not have is
  /// `BackendError.refused` (read, and a capture's entry), a read of an unowned selection
  /// `BackendError.noOwner`.
  case errorsAreMapped
  /// `close()` gives up the selections the backend owns: a peer then sees no owner.
  case closeGivesUpOwnedSelections
  /// `own(onlyIfUnowned: true)` of a selection a peer owns throws
  /// `BackendError.ownershipRefused` and leaves the peer's copy alone.
  case takeOnlyIfUnownedIsRefused
  /// `roles` holds the display server's roles, each served and read; a role outside them is
  /// `BackendError.unsupported`.
  case rolesAreKept

  public var testDescription: String { rawValue }
}
