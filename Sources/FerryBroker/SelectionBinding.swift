import Foundation
import Logging
import Pasteboard
import Synchronization
import X11Selections

/// Keeps a pasteboard and an X selection in step, both ways.
///
/// - What Ferry's clients write to the pasteboard, Ferry serves on the selection: the binding
///   takes the selection with a real server timestamp each time the pasteboard changes.
/// - What an X client copies, the binding mirrors into the pasteboard, so `pbpaste` and the
///   socket see it. `CLIPBOARD` is captured eagerly up to the byte budget, so the copy
///   outlives the owner; when the owner goes away (its client closed, its window destroyed)
///   and nobody owns the selection, the binding takes it and serves the copy. `PRIMARY`
///   changes with every selection drag, so it is mirrored lazily: its targets at once, its data
///   on request, from the owner.
/// - A selection is never taken from a live owner: only Ferry's own writes, or an owner that
///   has gone, make the binding take it.
final class SelectionBinding: Sendable {
  let pasteboard: Pasteboard
  let selection: String
  let display: X11Display
  let eager: Bool
  let byteBudget: Int
  let logger: Logger
  /// The item mirroring the X owner, which must not make the binding take the selection.
  private let mirror = Mutex<(item: ObjectIdentifier?, owner: XWindow, complete: [ClipboardCapture.Captured])?>(nil)
  private let capture = Mutex<Task<Void, Never>?>(nil)

  init(pasteboard: Pasteboard, selection: String, display: X11Display, eager: Bool, byteBudget: Int, logger: Logger) {
    self.pasteboard = pasteboard
    self.selection = selection
    self.display = display
    self.eager = eager
    self.byteBudget = byteBudget
    self.logger = logger
  }

  /// Follows pasteboard changes and owner changes until cancelled.
  func run() async {
    await withTaskGroup(of: Void.self) { group in
      group.addTask { await self.followPasteboard() }
      group.addTask { await self.followOwners() }
    }
  }

  private func followPasteboard() async {
    for await _ in pasteboard.changes {
      guard let item = pasteboard.items.first else {
        await display.disown(selection)
        continue
      }
      if mirror.withLock({ $0?.item == ObjectIdentifier(item) }) { continue }
      do {
        try await display.own(selection, item: item)
        logger.debug("serving \(pasteboard.name.rawValue) on \(selection)")
      } catch {
        logger.warning("could not take \(selection): \(error)")
      }
    }
  }

  private func followOwners() async {
    for await change in display.ownerChanges(of: [selection]) {
      if change.isOwnedByThisProcess { continue }
      switch change.kind {
      case .newOwner:
        startMirroring(owner: change.owner)
      case .windowDestroyed, .clientClosed:
        await takeOverIfOwnerless()
      }
    }
  }

  /// Mirrors the new owner's offer into the pasteboard, replacing a capture in progress.
  private func startMirroring(owner: XWindow) {
    let task = Task {
      let capture = ClipboardCapture(display: display, selection: selection, byteBudget: eager ? byteBudget : 0, logger: logger)
      do {
        let captured = try await capture.capture()
        guard !Task.isCancelled else { return }
        let item = capture.item(from: captured, live: true)
        mirror.withLock { $0 = (ObjectIdentifier(item), owner, captured.filter { $0.data != nil }) }
        pasteboard.write([item])
        logger.debug("mirrored \(captured.count) targets of \(selection) from 0x\(String(owner.rawValue, radix: 16))")
      } catch {
        logger.debug("could not mirror \(selection): \(error)")
      }
    }
    capture.withLock {
      $0?.cancel()
      $0 = task
    }
  }

  /// The owner went away: serve the captured copy if nobody else has taken the selection.
  private func takeOverIfOwnerless() async {
    await capture.withLock { $0 }?.value
    guard eager, let copy = mirror.withLock({ $0 }), !copy.complete.isEmpty,
      (try? await display.owner(of: selection)) == XWindow.none
    else { return }
    let capture = ClipboardCapture(display: display, selection: selection, byteBudget: byteBudget, logger: logger)
    let item = capture.item(from: copy.complete, live: false)
    do {
      try await display.own(selection, item: item)
      mirror.withLock { $0 = (ObjectIdentifier(item), .none, copy.complete) }
      pasteboard.write([item])
      logger.info("the owner of \(selection) went away; serving its copy")
    } catch {
      logger.warning("could not take over \(selection): \(error)")
    }
  }

  /// Copies the clipboard for an application about to exit (`SAVE_TARGETS`) and takes it.
  func saveForExitingOwner(targets: [String]?) async -> Bool {
    let capture = ClipboardCapture(display: display, selection: selection, byteBudget: byteBudget, logger: logger)
    guard let captured = try? await capture.capture(only: targets), captured.contains(where: { $0.data != nil }) else {
      return false
    }
    let item = capture.item(from: captured, live: false)
    do {
      try await display.own(selection, item: item)
    } catch {
      return false
    }
    mirror.withLock { $0 = (ObjectIdentifier(item), .none, captured) }
    pasteboard.write([item])
    logger.info("saved \(captured.count) targets of \(selection) for an exiting application")
    return true
  }
}
