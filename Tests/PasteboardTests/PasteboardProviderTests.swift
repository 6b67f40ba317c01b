import FerrySystem
import Foundation
import Testing
import UniformTypeIdentifiers

@testable import Pasteboard

@Suite struct PasteboardProviderTests {
  @Test func lazyProviderRunsOnceUnderConcurrentRequests() async throws {
    let calls = TrackedMutex(0)
    let item = PasteboardItem(
      representations: [
        .lazy(.utf8PlainText) {
          calls.withLock { $0 += 1 }
          try await Task.sleep(for: .milliseconds(50))  // a slow provider, so that requests overlap
          return .data(Data("made once".utf8))
        }
      ], converters: ConverterRegistry())
    let results = try await withThrowingTaskGroup(of: Data.self) { group in
      for index in 0..<64 {
        group.addTask {
          // Mix direct reads with conversions that need the same source.
          index % 2 == 0
            ? try await item.data(for: .utf8PlainText) : try await item.data(for: .latin1PlainText)
        }
      }
      return try await group.reduce(into: [Data]()) { $0.append($1) }
    }
    #expect(calls.withLock { $0 } == 1)
    #expect(results.count == 64)
    #expect(results.allSatisfy { text($0) == "made once" })
  }

  /// Runs jobs on a serial queue of its own, which it can recognise.
  final class QueueTaskExecutor: TaskExecutor, @unchecked Sendable {
    let queue = DispatchQueue(label: "test-executor")
    let key = DispatchSpecificKey<Bool>()
    init() { queue.setSpecific(key: key, value: true) }
    var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }
    func enqueue(_ job: consuming ExecutorJob) {
      let job = UnownedJob(job)
      queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
  }

  @Test func aProviderRunsOffTheExecutorItsCallerPrefers() async throws {
    let executor = QueueTaskExecutor()
    let ranOnCallersExecutor = TrackedMutex<[Bool]>([])
    let item = PasteboardItem(
      representations: [
        .lazy(.utf8PlainText) {
          ranOnCallersExecutor.withLock { $0.append(executor.isCurrent) }
          return .data(Data("made".utf8))
        }
      ], converters: ConverterRegistry())
    let (callerWasThere, data) = try await withTaskExecutorPreference(executor) {
      (executor.isCurrent, try await item.data(for: .latin1PlainText))
    }
    #expect(callerWasThere, "the caller itself runs on its preferred executor")
    #expect(text(data) == "made")
    #expect(
      ranOnCallersExecutor.withLock { $0 } == [false],
      "a provider may take long: not on the caller's executor")
  }

  final class Counter: Sendable {
    let value = TrackedMutex(0)
  }

  struct CountingConverter: PasteboardConverter {
    let counter: Counter
    func outputs(from source: UTType) -> [UTType] { source == .utf8PlainText ? [.html] : [] }
    func convert(_ payload: PasteboardPayload, from: UTType, to: UTType) async throws
      -> PasteboardPayload
    {
      counter.value.withLock { $0 += 1 }
      return .data(Data("<p>\(String(decoding: try payload.data(), as: UTF8.self))</p>".utf8))
    }
  }

  @Test func conversionsAreCachedPerItem() async throws {
    let counter = Counter()
    let registry = ConverterRegistry()
    registry.register(CountingConverter(counter: counter))
    let item = PasteboardItem(
      representations: [.data(Data("hi".utf8), type: .utf8PlainText)], converters: registry)
    for _ in 0..<5 { #expect(text(try await item.data(for: .html)) == "<p>hi</p>") }
    #expect(counter.value.withLock { $0 } == 1)
  }

  @Test func throwingProviderFailsOnlyThatRequest() async throws {
    let board = isolatedPasteboard()
    board.write([
      PasteboardItem(
        representations: [
          .lazy(.png) { throw CocoaError(.fileReadCorruptFile) },
          .data(Data("still here".utf8), type: .utf8PlainText),
        ], converters: board.converters)
    ])
    let count = board.changeCount
    do {
      _ = try await board.data(for: .png)
      Issue.record("expected the provider's error")
    } catch let error as PasteboardError {
      guard case .providerFailed(let type, _) = error else {
        Issue.record("wrong error \(error)")
        return
      }
      #expect(type == .png)
      #expect(error.description.contains("public.png"))
    }
    #expect(text(try await board.data(for: .utf8PlainText)) == "still here")
    #expect(board.changeCount == count)
    #expect(board.types.first == .png)
  }

  @Test func providerPastItsTimeLimitFailsQuickly() async throws {
    let item = PasteboardItem(
      representations: [
        .lazy(.png, timeLimit: .milliseconds(200)) {
          try await Task.sleep(for: .seconds(30))
          return .data(Data())
        },
        .data(Data("fine".utf8), type: .utf8PlainText),
      ], converters: ConverterRegistry())
    // The provider sleeps 30 s and would then succeed: the timeout error shows that the
    // limit, not the provider, ended the request.
    do {
      _ = try await item.data(for: .png)
      Issue.record("expected a timeout")
    } catch PasteboardError.providerTimedOut(let type, _) {
      #expect(type == .png)
    }
    #expect(text(try await item.data(for: .utf8PlainText)) == "fine")
  }

  @Test func failedProviderRunsAgainOnALaterRequest() async throws {
    let attempts = TrackedMutex(0)
    let item = PasteboardItem(
      representations: [
        .lazy(.utf8PlainText) {
          let attempt = attempts.withLock { value -> Int in
            value += 1
            return value
          }
          if attempt == 1 { throw CocoaError(.fileReadUnknown) }
          return .data(Data("second time".utf8))
        }
      ], converters: ConverterRegistry())
    await #expect(throws: PasteboardError.self) { try await item.data(for: .utf8PlainText) }
    #expect(text(try await item.data(for: .utf8PlainText)) == "second time")
    #expect(text(try await item.data(for: .utf8PlainText)) == "second time")
    #expect(attempts.withLock { $0 } == 2)
  }

  @Test func filePayloadsStayFiles() async throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-\(UUID()).bin")
    try Data(repeating: 7, count: 3000).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let item = PasteboardItem(
      representations: [.file(url, type: .data)], converters: ConverterRegistry())
    guard case .file(let served) = try await item.payload(for: .data) else {
      Issue.record("expected a file payload")
      return
    }
    #expect(served == url)
    #expect(try await item.data(for: .data).count == 3000)
  }
}
