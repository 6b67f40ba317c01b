import DragWindows
import FerryTestSupport
import Foundation
import Pasteboard
import Testing
import UniformTypeIdentifiers
import X11Selections

extension DragAndDropTests.DragAndDropInteropTests {
  /// The library's drag window to the library's drop window, two connections of this
  /// process: the item's types arrive in order, all of them, and land on the pasteboard.
  @Test func ferryToFerryThroughTheLibrary() async throws {
    let server = try await DragServer.start()
    let name = server.name
    let receiving = try await DetachedThread.run { try X11Display(name: name) }
    let sending = try await DetachedThread.run { try X11Display(name: name) }
    defer {
      receiving.close()
      sending.close()
    }
    let board = Pasteboard(
      name: Pasteboard.Name(rawValue: "dnd-test-\(UUID().uuidString.prefix(8))"))
    let dropWindow = try await receiving.openDropWindow(
      title: "drop here", geometry: WindowGeometry("200x200+400+0"), pasteboard: board)
    let drops = Collected(dropWindow.events)
    let json = Data(#"{"name":"Juan Chavez"}"#.utf8)
    let item = PasteboardItem(representations: [
      .data(json, type: .json), .data(Data("Juan Chavez".utf8), type: .utf8PlainText),
    ])
    let dragWindow = try await sending.openDragWindow(
      [DragEntry(label: "profile", item: item)], title: "drag me",
      geometry: WindowGeometry("360x160+0+0"))
    let drags = Collected(dragWindow.events)
    let frame = try #require(try await dragWindow.entryFrames().first)
    // The window's 1-pixel border, then the 8-pixel margin; two header rows above the entry.
    #expect(
      frame.x == 9 && frame.y > 9 + 2 * frame.height && frame.width == 344,
      "the entry box: \(frame)")

    try await Drag.perform(on: name, from: frame.center, to: Self.targetCenter)

    let ended = await drags.wait { $0.contains { if case .ended = $0 { true } else { false } } }
    #expect(ended)
    let outcomes = drags.all.compactMap { event -> DragOutcome? in
      if case .ended(_, let outcome) = event { return outcome }
      return nil
    }
    #expect(outcomes == [.dropped(target: dropWindow.window, action: .copy)])
    #expect(await drops.wait { $0.contains { if case .dropped = $0 { true } else { false } } })
    let drop = try #require(
      drops.all.compactMap { event -> Drop? in
        if case .dropped(let drop) = event { return drop }
        return nil
      }.first)
    #expect(drop.offered.first == "application/json")
    #expect(drop.offered.contains("UTF8_STRING"))
    #expect(drop.offered.count > 3, "through XdndTypeList")
    #expect(
      drop.received.map(\.target) == drop.offered.filter(drop.received.map(\.target).contains),
      "in order")
    #expect(drop.item.storedTypes.first == .json)
    #expect(try await drop.item.data(for: .json) == json)
    #expect(drop.text == "Juan Chavez")
    #expect(drop.action == .copy)
    #expect(board.items.count == 1)
    #expect(board.items.first?.storedTypes == drop.item.storedTypes)

    dropWindow.close()
    dragWindow.close()
    #expect(await drops.wait { $0.contains { if case .closed = $0 { true } else { false } } })
    #expect(await drags.wait { $0.contains { if case .closed = $0 { true } else { false } } })
  }
}
