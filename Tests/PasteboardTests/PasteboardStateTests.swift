import Foundation
import Testing
import UniformTypeIdentifiers

@testable import Pasteboard

@Suite struct PasteboardStateTests {
  @Test func changeCountGrowsWithEveryWriteAndClear() async throws {
    let board = isolatedPasteboard()
    let changes = board.changes
    let start = board.changeCount
    board.write([PasteboardItem(representations: [.data(Data("a".utf8), type: .utf8PlainText)])])
    #expect(board.changeCount == start + 1)
    board.clearContents()
    #expect(board.changeCount == start + 2)
    #expect(board.items.isEmpty)
    var seen: [Int] = []
    for await count in changes {
      seen.append(count)
      if seen.count == 2 { break }
    }
    #expect(seen == [start + 1, start + 2])
  }

  @Test func namedPasteboardsAreShared() {
    #expect(Pasteboard.named("shared-name-test") === Pasteboard.named("shared-name-test"))
    #expect(Pasteboard.general === Pasteboard.named(.general))
    #expect(Pasteboard.general !== Pasteboard.primary)
  }

  @Test func expiredItemsAreNotServed() async throws {
    let board = isolatedPasteboard()
    board.write([
      PasteboardItem(
        representations: [.data(Data("gone".utf8), type: .utf8PlainText)],
        expirationDate: Date(timeIntervalSinceNow: -1))
    ])
    #expect(board.items.isEmpty)
    await #expect(throws: PasteboardError.self) { try await board.data(for: .utf8PlainText) }
  }

  @Test func markerTypesSetOptions() {
    let concealed = PasteboardItem(representations: [
      .data(Data("hunter2".utf8), type: .utf8PlainText), .data(Data(), type: .concealedMarker),
    ])
    #expect(concealed.options.contains(.concealed))
    let kde = PasteboardItem(representations: [
      .data(Data("hunter2".utf8), type: .utf8PlainText),
      .data(Data("secret".utf8), type: .passwordManagerHint),
    ])
    #expect(kde.options.contains(.concealed))
    let notSecret = PasteboardItem(representations: [
      .data(Data("x".utf8), type: .utf8PlainText),
      .data(Data("public".utf8), type: .passwordManagerHint),
    ])
    #expect(!notSecret.options.contains(.concealed))
    let transient = PasteboardItem(representations: [.data(Data(), type: .transientMarker)])
    #expect(transient.options.contains(.transient))
  }

  @Test func concurrentWritersAndReadersNeverSeeTornState() async throws {
    let board = isolatedPasteboard()
    try await withThrowingTaskGroup(of: Void.self) { group in
      for writer in 0..<8 {
        group.addTask {
          for round in 0..<50 {
            let value = "\(writer)-\(round)"
            board.write([
              PasteboardItem(representations: [.data(Data(value.utf8), type: .utf8PlainText)])
            ])
          }
        }
      }
      for _ in 0..<8 {
        group.addTask {
          for _ in 0..<50 {
            if let data = try? await board.data(for: .utf8PlainText) {
              #expect(text(data).contains("-"))
            }
          }
        }
      }
      try await group.waitForAll()
    }
    #expect(board.changeCount == 400)
  }
}
