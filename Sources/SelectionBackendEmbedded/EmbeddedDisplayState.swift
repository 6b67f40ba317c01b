import FerrySystem
import FoundationEssentials
import Pasteboard
import SelectionBackendCore

/// What an ``EmbeddedSelectionBackend`` holds: who owns each selection, who watches, and
/// counts the tests read.
struct EmbeddedDisplayState: Sendable {
  /// The owner of a selection.
  enum Owner: Sendable {
    /// A simulated program, with its targets.
    case peer(
      targets: [EmbeddedPeerTarget], concealed: Bool, hangsOnTargets: Bool, token: OwnerToken)
    /// The broker, serving an item.
    case broker(item: PasteboardItem, token: OwnerToken, onLost: @Sendable () -> Void)

    var token: OwnerToken {
      switch self {
      case .peer(_, _, _, let token), .broker(_, let token, _): token
      }
    }

    var hangsOnTargets: Bool {
      if case .peer(_, _, true, _) = self { return true }
      return false
    }

    /// The owner's offer.
    func offer(role: SelectionRole) -> OwnerOffer {
      switch self {
      case .peer(let targets, let concealed, _, _):
        return OwnerOffer(role: role, targets: targets.map(\.offered), isConcealed: concealed)
      case .broker(let item, _, _):
        let targets = item.types.map { OwnerOffer.Target(name: $0.identifier, type: $0) }
        return OwnerOffer(
          role: role, targets: targets, isConcealed: item.options.contains(.concealed))
      }
    }

    /// The owner's answer for `target`: its data, `nil` when it hangs, or a refusal.
    func answer(_ target: String, role: SelectionRole) async -> Result<Data?, BackendError> {
      switch self {
      case .peer(let targets, _, _, _):
        guard let found = targets.first(where: { $0.name == target }) else {
          return .failure(.refused(role, target: target))
        }
        return .success(found.data)
      case .broker(let item, _, _):
        guard let type = item.types.first(where: { $0.identifier == target }),
          let data = try? await item.data(for: type)
        else {
          return .failure(.refused(role, target: target))
        }
        return .success(data)
      }
    }
  }

  /// Something to do once the lock is released.
  enum Notice {
    case change(AsyncStream<OwnerChange>.Continuation, OwnerChange)
    case lost(@Sendable () -> Void)

    func deliver() {
      switch self {
      case .change(let continuation, let change): continuation.yield(change)
      case .lost(let handler): handler()
      }
    }
  }

  var owners: [SelectionRole: Owner] = [:]
  var watchers:
    [UInt64: (roles: Set<SelectionRole>, continuation: AsyncStream<OwnerChange>.Continuation)] = [:]
  var applications: [OwnerToken: String] = [:]
  var lostHandlers: [@Sendable () -> Void] = []
  var manager: (save: @Sendable (SaveRequest) async -> Bool, onLost: @Sendable () -> Void)?
  /// How many times each target was read.
  var reads: [String: Int] = [:]
  /// How many times the broker took each selection.
  var ownCount: [SelectionRole: Int] = [:]
  /// The owners that are the desktop's keeper restoring part of a copy
  /// (``EmbeddedSelectionBackend/desktopKeeps(_:_:)``).
  var keepers: Set<OwnerToken> = []
  private var lastToken: UInt64 = 0

  /// A new token: a new owner identity and a later time.
  mutating func nextToken() -> OwnerToken {
    lastToken += 1
    return OwnerToken(owner: lastToken, generation: lastToken)
  }

  /// The notices that tell every watcher of `change.role` about it.
  func notices(_ change: OwnerChange) -> [Notice] {
    watchers.values.filter { $0.roles.contains(change.role) }.map {
      .change($0.continuation, change)
    }
  }
}

/// The state, shared by reference between the backend and its clipboard manager.
final class EmbeddedDisplay: Sendable {
  private let state = TrackedMutex(EmbeddedDisplayState())

  /// Runs `body` with the state locked.
  func withLock<Result>(_ body: (inout EmbeddedDisplayState) -> Result) -> Result {
    state.withLock { body(&$0) }
  }
}
