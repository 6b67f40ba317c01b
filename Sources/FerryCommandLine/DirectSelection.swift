import FoundationEssentials
import Pasteboard
import SelectionBackendCore
import UniformTypeIdentifiers

/// Reading a selection without a broker: what `pbpaste` does when no broker runs.
///
/// The owner's targets become a pasteboard item whose representations read from the owner on
/// request, so the same conversions apply as through the broker (`--type org.x.string` from
/// an owner that only offers `UTF8_STRING`, say). A target that serves the requested type
/// directly is streamed to the output as it arrives.
public struct DirectSelection: Sendable {
  let backend: any SelectionBackend
  let selection: SelectionRole
  let stepTimeout: Duration

  /// Connects to the display server for `selection`.
  ///
  /// - Throws: ``CommandFailure`` with status 3 when there is no display.
  public init(selection: SelectionRole, displayName: String?, stepTimeout: Duration) throws {
    do {
      backend = try DisplayServer.connect(displayName: displayName)
    } catch {
      throw CommandFailure("\(error), and no broker is running", status: .noDisplayNoBroker)
    }
    self.selection = selection
    self.stepTimeout = stepTimeout
  }

  /// Closes the connection and waits (briefly) for its thread to end.
  ///
  /// Call it before the process exits: leaving it to the display's last release let that
  /// release happen on a concurrency thread after `pbpaste` had printed and called `exit`,
  /// so the X thread was inside `XCloseDisplay` while libX11's exit-time destructor freed
  /// the lock that call takes (a SIGSEGV that lost the buffered output).
  public func close() {
    backend.close()
  }

  /// What the owner offers.
  public func offer() async throws -> OwnerOffer {
    do {
      return try await backend.offer(of: selection, stepTimeout: stepTimeout)
    } catch {
      throw Self.failure(error, selection: selection)
    }
  }

  /// The item the owner offers, read lazily.
  public func item(_ offer: OwnerOffer) -> PasteboardItem {
    backend.item(
      OfferCapture(offer: offer, entries: offer.targets.map { OfferCapture.Entry(target: $0) }),
      readingTheRestWithin: stepTimeout)
  }

  /// Writes the first of `preferences` the owner can serve to `descriptor`.
  ///
  /// - Returns: The type written.
  /// - Throws: ``CommandFailure``: status 1 when nothing fits, 4 on a timeout.
  public func paste(preferences: [UTType], to descriptor: Int32) async throws -> UTType {
    let offer = try await offer()
    let targets = offer.targets
    guard !targets.isEmpty else {
      throw CommandFailure("the \(selection) owner offers nothing", status: .nothingAvailable)
    }
    // A target of exactly a wanted type streams straight to the output.
    for wanted in preferences {
      if let direct = targets.first(where: { $0.type == wanted }),
        wanted != .utf8PlainText || direct.name == "UTF8_STRING"
          || direct.name.hasPrefix("text/plain;charset=utf-8")
      {
        do {
          try await backend.read(
            selection, target: direct.name, into: descriptor, stepTimeout: stepTimeout)
          return wanted
        } catch {
          if case .refused = error { continue }
          throw Self.failure(error, selection: selection)
        }
      }
    }
    let item = item(offer)
    for wanted in preferences {
      guard item.availableType(conformingTo: wanted) != nil else { continue }
      do {
        try await item.payload(for: wanted).write(to: descriptor)
        return wanted
      } catch let error as PasteboardError {
        if case .providerTimedOut = error {
          throw CommandFailure("the owner of \(selection) did not answer in time", status: .timeout)
        }
        continue
      }
    }
    let offered = targets.map(\.type.identifier).joined(separator: ", ")
    throw CommandFailure(
      "\(preferences.map(\.identifier).joined(separator: " or ")) is not available (the \(selection) owner offers \(offered))",
      status: .nothingAvailable)
  }

  static func failure(_ error: BackendError, selection: SelectionRole) -> CommandFailure {
    switch error {
    case .noOwner:
      CommandFailure("nothing to paste: nobody owns \(selection)", status: .nothingAvailable)
    case .timedOut:
      CommandFailure("the owner of \(selection) did not answer in time", status: .timeout)
    case .refused: CommandFailure("\(error)", status: .nothingAvailable)
    case .cannotConnect:
      CommandFailure("\(error), and no broker is running", status: .noDisplayNoBroker)
    default: CommandFailure("\(error)", status: .io)
    }
  }
}
