import FerrySystem
import Foundation
import Testing

@testable import UniformTypeIdentifiers

@Suite("Concurrency")
struct ConcurrencyTests {
  /// Many tasks look types up while another task loads declaration files into the shared
  /// registry; every answer stays right and every loaded type ends up visible.
  @Test(.timeLimit(.minutes(1)))
  func lookupsWhileDeclarationsLoad() async throws {
    try await withTemporaryDirectory { directory in
      let fileCount = 20
      var paths: [String] = []
      for index in 0..<fileCount {
        paths.append(
          try write(
            try declarationJSON(exported: [
              entry(
                "org.ferrytests.concurrency.type\(index)", conformsTo: ["public.plain-text"],
                extensions: ["ftconc\(index)"])
            ]), to: "decl\(index).json", in: directory))
      }
      let loadedPaths = paths
      await withTaskGroup(of: Int.self) { group in
        group.addTask {
          var problems = 0
          for path in loadedPaths { problems += UTType.loadDeclarations(from: path).count }
          return problems
        }
        for worker in 0..<8 {
          group.addTask {
            var wrong = 0
            for round in 0..<300 {
              if UTType(filenameExtension: "jpg") != .jpeg { wrong += 1 }
              if UTType(mimeType: "text/plain; charset=utf-8") != .utf8PlainText { wrong += 1 }
              if !UTType.jpeg.conforms(to: .data) { wrong += 1 }
              if UTType("public.png") != .png { wrong += 1 }
              if UTType(filenameExtension: "turtle")?.identifier != "dyn.ah62d4rv4ge81k7pwsv0gn" {
                wrong += 1
              }
              // A type being loaded is either absent or complete, never half there.
              let index = (worker + round) % fileCount
              if let type = UTType("org.ferrytests.concurrency.type\(index)") {
                if !type.conforms(to: .text) { wrong += 1 }
                if type.preferredFilenameExtension != "ftconc\(index)" { wrong += 1 }
              }
              if let found = UTType(filenameExtension: "ftconc\(index)"), !found.isDynamic {
                if found.identifier != "org.ferrytests.concurrency.type\(index)" { wrong += 1 }
              }
            }
            return wrong
          }
        }
        var total = 0
        for await count in group { total += count }
        #expect(total == 0)
      }
      for index in 0..<fileCount {
        let type = UTType("org.ferrytests.concurrency.type\(index)")
        #expect(type?.conforms(to: .plainText) == true)
        #expect(UTType(filenameExtension: "ftconc\(index)") == type)
      }
    }
  }

  /// Code declarations from many tasks at once: each identifier is declared once and is
  /// visible to all.
  @Test(.timeLimit(.minutes(1)))
  func codeDeclarationsFromManyTasks() async {
    let types = await withTaskGroup(of: UTType.self) { group in
      for index in 0..<64 {
        group.addTask {
          UTType(importedAs: "org.ferrytests.concurrency.code\(index % 8)", conformingTo: .image)
        }
      }
      var results: [UTType] = []
      for await type in group { results.append(type) }
      return results
    }
    #expect(Set(types).count == 8)
    #expect(types.allSatisfy { $0.isDeclared && $0.conforms(to: .image) })
  }

  /// A private registry being loaded while others read it, with the MIME database loading
  /// on first need from several tasks at once.
  @Test(.timeLimit(.minutes(1)))
  func privateRegistryLoadsOnceUnderContention() async throws {
    try await withTemporaryDirectory { directory in
      let mime = try MIMEDatabaseFixtureTests.writeDatabase(in: directory)
      let registry = privateRegistry(mimeDirectories: [mime])
      let answers = await withTaskGroup(of: String?.self) { group in
        for _ in 0..<16 {
          group.addTask { registry.preferredIdentifier("ftchild", .filenameExtension) }
        }
        var answers: [String?] = []
        for await answer in group { answers.append(answer) }
        return answers
      }
      #expect(answers.allSatisfy { $0 == MIMEDatabaseFixtureTests.child })
      #expect(registry.isMIMEDatabaseLoaded)
    }
  }

  /// Runs each body on a thread of its own (not the shared pool, which parallel tests keep
  /// busy) and returns their results in order.
  static func onThreads(_ bodies: [@Sendable () -> String?]) -> [String?] {
    let results = TrackedMutex([String?](repeating: nil, count: bodies.count))
    let group = DispatchGroup()
    for (index, body) in bodies.enumerated() {
      group.enter()
      Thread {
        let result = body()
        results.withLock { $0[index] = result }
        group.leave()
      }.start()
    }
    group.wait()
    return results.withLock { $0 }
  }

  /// A lookup that starts once the registry reports the MIME database loaded sees it, even
  /// while the loading thread is still building its catalog.
  @Test(.timeLimit(.minutes(1)))
  func databaseIsVisibleOnceReportedLoaded() throws {
    try withTemporaryDirectory { directory in
      // A database big enough that building its catalog takes a while.
      let count = 6000
      var types = ""
      var globs = ""
      for index in 0..<count {
        types += "application/x-ferrytests-bulk\(index)\n"
        globs += "50:application/x-ferrytests-bulk\(index):*.ftbulk\(index)\n"
      }
      try write(types, to: "mime/types", in: directory)
      try write(globs, to: "mime/globs2", in: directory)
      let expected = "org.freedesktop.mime.application.x-ferrytests-bulk\(count - 1)"
      for _ in 0..<3 {
        let registry = privateRegistry(mimeDirectories: [directory + "/mime"])
        let reader: @Sendable () -> String? = {
          while !registry.isMIMEDatabaseLoaded { sched_yield() }
          return registry.preferredIdentifier("ftbulk\(count - 1)", .filenameExtension)
        }
        let answers = Self.onThreads([
          { registry.preferredIdentifier("ftbulk0", .filenameExtension) }, reader, reader,
        ])
        #expect(Array(answers.dropFirst()) == [expected, expected])
      }
    }
  }

  /// The same for declaration files found on the search path.
  @Test(.timeLimit(.minutes(1)))
  func declarationsAreVisibleOnceReportedLoaded() throws {
    try withTemporaryDirectory { directory in
      let count = 4000
      let entries = (0..<count).map {
        entry("org.ferrytests.bulk.type\($0)", extensions: ["ftbulkdecl\($0)"])
      }
      try write(try declarationJSON(exported: entries), to: "types/bulk.json", in: directory)
      let expected = "org.ferrytests.bulk.type\(count - 1)"
      for _ in 0..<3 {
        let registry = privateRegistry(declarationDirectories: [directory + "/types"])
        let reader: @Sendable () -> String? = {
          while !registry.state.withLock({ $0.searchPathLoaded }) { sched_yield() }
          return registry.record(expected)?.identifier
        }
        let answers = Self.onThreads([
          { registry.record("org.ferrytests.bulk.type0")?.identifier }, reader, reader,
        ])
        #expect(Array(answers.dropFirst()) == [expected, expected])
      }
    }
  }
}
