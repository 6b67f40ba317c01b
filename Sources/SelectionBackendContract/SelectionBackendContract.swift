import FerryTestSupport
import Foundation
import Pasteboard
import SelectionBackendCore
import Testing
import UniformTypeIdentifiers

/// The checks every `SelectionBackend` runs, written once against `any SelectionBackend`: the
/// promises of the seam's documentation (``SelectionBackendPromise``), each played against a
/// display server through a ``SelectionBackendDriver``. A new backend is done when it passes
/// them.
///
/// A backend's suite runs each promise on each role it has, in order (the checks share the
/// display server's selections):
///
/// ```swift
/// @Suite(.serialized) struct EmbeddedContractTests {
///   @Test(arguments: SelectionBackendPromise.allCases, [SelectionRole.clipboard, .primary])
///   func keeps(_ promise: SelectionBackendPromise, on role: SelectionRole) async throws {
///     try await SelectionBackendContract.check(promise, on: role, with: EmbeddedDriver())
///   }
/// }
/// ```
///
/// A promise the driver lists in ``SelectionBackendDriver/knownGaps`` runs as a known issue
/// (`withKnownIssue`), which fails once the backend keeps it.
public enum SelectionBackendContract {
  /// The step timeout of every check but the stalled owner's: generous, never reached.
  static let step = Duration.seconds(10)
  /// The stalled owner's step timeout.
  public static let stallTimeout = Duration.milliseconds(500)

  /// Checks `promise` on `role` of `driver`'s backend, as a known issue when the driver lists
  /// it among its gaps; the role is given up (and every peer ended) before and after (a check
  /// that throws leaves it to the next one's start).
  public static func check(
    _ promise: SelectionBackendPromise, on role: SelectionRole,
    with driver: some SelectionBackendDriver
  ) async throws {
    try await driver.reset(role)
    if let gap = driver.knownGaps[promise] {
      await withKnownIssue(Comment(rawValue: gap)) {
        try await run(promise, on: role, with: driver)
      }
    } else {
      try await run(promise, on: role, with: driver)
    }
    try await driver.reset(role)
  }

  private static func run(
    _ promise: SelectionBackendPromise, on role: SelectionRole,
    with driver: some SelectionBackendDriver
  ) async throws {
    switch promise {
    case .ownServesTheItemInOrder: try await ownServesTheItemInOrder(role, driver)
    case .aNewOwnerCallsOnLostOnce: try await aNewOwnerCallsOnLostOnce(role, driver)
    case .ownChangesOfThisProcessAreReported:
      try await ownChangesOfThisProcessAreReported(role, driver)
    case .disownGivesUpAndIsReported: try await disownGivesUpAndIsReported(role, driver)
    case .anUnownedRoleHasNoOffer: try await anUnownedRoleHasNoOffer(role, driver)
    case .offerKeepsTheOwnersOrder: try await offerKeepsTheOwnersOrder(role, driver)
    case .captureKeepsToItsBudget: try await captureKeepsToItsBudget(role, driver)
    case .aStalledOwnerTimesOutAtTheStepTimeout: try await aStalledOwnerTimesOut(role, driver)
    case .aStartedTransferIsFinished: try await aStartedTransferIsFinished(role, driver)
    case .aTransferStalledMidwayRecordsNothing: try await aTransferStalledMidway(role, driver)
    case .readStreamsTheBytes: try await readStreamsTheBytes(role, driver)
    case .errorsAreMapped: try await errorsAreMapped(role, driver)
    case .closeGivesUpOwnedSelections: try await closeGivesUpOwnedSelections(role, driver)
    case .takeOnlyIfUnownedIsRefused: try await takeOnlyIfUnownedIsRefused(role, driver)
    case .rolesAreKept: try await rolesAreKept(role, driver)
    }
  }

  // MARK: What the checks serve and offer

  /// A custom type of the contract's, offered under its identifier.
  static let recordType = UTType(exportedAs: "org.ferry.contract.record")

  /// The item the backend serves: three representations, in an order no display server
  /// would choose by itself.
  static func item(_ words: String) -> PasteboardItem {
    PasteboardItem(representations: [
      .data(Data(#"{"words":"\#(words)"}"#.utf8), type: recordType),
      .data(Data("<i>\(words)</i>".utf8), type: .html),
      .data(Data(words.utf8), type: .utf8PlainText),
    ])
  }

  /// Waits until a peer reader sees (or no longer sees) an owner of `role`.
  static func peerSeesAnOwner(
    _ role: SelectionRole, _ driver: some SelectionBackendDriver, _ owned: Bool
  ) async -> Bool {
    await Deadline.wait(for: .seconds(10)) {
      ((try? await driver.peerListsTargets(role)) != nil) == owned
    }
  }
}
