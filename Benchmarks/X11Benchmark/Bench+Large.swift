import FerryTestSupport
import Foundation
import X11Selections

#if canImport(Glibc)
  import Glibc
#endif

/// 100 MiB through `CLIPBOARD`: each owner read by the same readers into the same sink.
extension Bench {
  /// Who reads the 100 MiB.
  enum LargeReader: String, CaseIterable {
    /// Ferry's requestor (`SelectionReaderService`) in this process, into `/dev/null`.
    case ferry = "Ferry's reader"
    /// A spawned `xclip -o`, straight into `/dev/null` (no shell, no pipe).
    case xclip = "xclip -o"
  }

  /// Where Ferry's owner takes the 100 MiB from (xclip reads it into memory, always).
  enum Storage: Hashable {
    /// The file, in the page cache: a spooled copy, as the broker serves it.
    case file
    /// The file, first dropped from the page cache, so that serving it reads the disk
    /// (Ferry's spool after a day of other work, say).
    case uncachedFile
    /// Memory, read from the file before owning, as xclip does: the owners' own work alike.
    case memory
  }

  /// One contender: an owner, a reader, and where the owner takes the bytes from.
  struct LargeCase: Hashable {
    var owner: Owner
    var reader: LargeReader
    var storage = Storage.file

    var label: String {
      let from = [.file: "", .uncachedFile: " (file not cached)", .memory: " (from memory)"][
        storage]!
      return "\(owner.name)\(owner.isFerry ? from : "") → \(reader.rawValue)"
    }
  }

  static let largeSize = 100 << 20
  static let largeTarget = "application/octet-stream"

  /// The contenders: with each reader, every Ferry owner serving the file, this build's from
  /// memory too, and xclip; then Ferry's owners serving a file not in the page cache. Or
  /// `only`.
  func largeCases(only: LargeCase?) -> [LargeCase] {
    if let only { return [only] }
    return LargeReader.allCases.flatMap { reader in
      ferryOwners.map { LargeCase(owner: $0, reader: reader) }
        + [
          LargeCase(owner: ferryOwners[0], reader: reader, storage: .memory),
          LargeCase(owner: .xclip, reader: reader),
        ]
    } + ferryOwners.map { LargeCase(owner: $0, reader: .ferry, storage: .uncachedFile) }
  }

  /// - Parameter only: One contender alone (to profile it), or all.
  func large(rounds: Int, only: LargeCase? = nil) async throws {
    let payload = try makePayload(Self.largeSize)
    let cases = largeCases(only: only)
    var samples: [LargeCase: Samples] = [:]
    try await interleave(cases, rounds: rounds) { contender, counted in
      if contender.storage == .uncachedFile { try dropFromPageCache(payload) }
      let served: Served =
        contender.storage == .memory
        ? .memory(payload, target: Self.largeTarget) : .file(payload, target: Self.largeTarget)
      let owner = try await start(contender.owner, serving: served)
      let measurement = try await measure(owner) {
        try await readLarge(with: contender.reader, checked: !counted)
      }
      try await owner.stop(probe: reader)
      if counted { samples[contender, default: Samples()].append(measurement) }
    }

    print(
      "\n100 MiB of random bytes as \(Self.largeTarget); Ferry serves it from a file unless said, xclip from memory"
    )
    print(
      Report.padded("owner → reader", 44) + "    wall     MiB/s   owner CPU  reader CPU    Xvfb CPU"
    )
    for contender in cases {
      let values = samples[contender]!
      let wall = Report.median(values.wall)
      print(
        Report.padded(contender.label, 40) + Report.milliseconds(wall)
          + String(format: " %8.0f", Double(Self.largeSize >> 20) / wall)
          + Report.milliseconds(Report.median(values.owner))
          + Report.milliseconds(Report.median(values.reader))
          + Report.milliseconds(Report.median(values.server)))
    }
    func wall(_ contender: LargeCase) -> Double? {
      samples[contender].map { Report.median($0.wall) }
    }
    for contender in cases where contender.owner.isFerry {
      guard let ours = wall(contender),
        let theirs = wall(LargeCase(owner: .xclip, reader: contender.reader))
      else {
        continue
      }
      print("\(contender.label): \(Report.ratio(theirs / ours)) xclip's (xclip's time / its)")
    }
    if ferryOwners.count == 2 {
      let (ours, theirs) = (ferryOwners[0], ferryOwners[1])
      for contender in cases where contender.owner == ours {
        var compared = contender
        compared.owner = theirs
        guard let new = wall(contender), let old = wall(compared) else { continue }
        print("\(contender.label): \(Report.ratio(old / new)) \(theirs.name)'s")
      }
    }
  }

  /// Reads the selection once with `with`; returns the wall time and the reader's CPU time.
  /// A `checked` read goes into a file whose size is then checked (the warm-up round).
  private func readLarge(with kind: LargeReader, checked: Bool) async throws -> (
    wall: Double, reader: Double
  ) {
    let output = checked ? directory.appendingPathComponent("read.bin") : nil
    let sink =
      output.map { open($0.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600) } ?? Sink.null
    defer { if output != nil { close(sink) } }
    let result: (wall: Double, reader: Double)
    switch kind {
    case .ferry:
      let clock = ContinuousClock()
      let start = clock.now
      let before = CPUTime.thread(readerThread)
      let reply = try await reader.read(
        .clipboard, target: Self.largeTarget, into: .fileDescriptor(sink), stepTimeout: .seconds(10)
      )
      result = ((clock.now - start) / .seconds(1), CPUTime.thread(readerThread) - before)
      guard reply.byteCount == Self.largeSize else {
        throw BenchmarkError("Ferry read \(reply.byteCount) bytes")
      }
    case .xclip:
      let display = display
      let (wall, ending) = try await DetachedThread.run {
        let clock = ContinuousClock()
        let start = clock.now
        let reader = try Spawned(
          ["xclip", "-o", "-selection", "clipboard", "-t", Self.largeTarget], display: display,
          output: sink)
        let ending = reader.wait()
        return ((clock.now - start) / .seconds(1), ending)
      }
      guard ending.succeeded else {
        throw BenchmarkError("xclip -o failed (status \(ending.status))")
      }
      result = (wall, ending.cpuSeconds)
    }
    if let output {
      let size =
        (try FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int) ?? -1
      guard size == Self.largeSize else {
        throw BenchmarkError("\(kind.rawValue) read \(size) bytes")
      }
    }
    return result
  }

  /// Drops `file` from the page cache (`POSIX_FADV_DONTNEED`: its pages are clean, so they
  /// go), leaving every other file's alone.
  func dropFromPageCache(_ file: URL) throws {
    let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw BenchmarkError("cannot open \(file.path)") }
    defer { close(descriptor) }
    _ = posix_fadvise(descriptor, 0, 0, Int32(POSIX_FADV_DONTNEED))
  }

  /// A file of `size` random bytes.
  func makePayload(_ size: Int) throws -> URL {
    let url = directory.appendingPathComponent("payload.bin")
    var generator = SplitMix64(seed: 0x5eed)
    var words = [UInt64](repeating: 0, count: 1 << 17)  // 1 MiB
    _ = FileManager.default.createFile(atPath: url.path, contents: nil)
    let handle = try FileHandle(forWritingTo: url)
    for _ in 0..<(size >> 20) {
      for index in words.indices { words[index] = generator.next() }
      try handle.write(contentsOf: words.withUnsafeBytes { Data($0) })
    }
    try handle.close()
    return url
  }
}
