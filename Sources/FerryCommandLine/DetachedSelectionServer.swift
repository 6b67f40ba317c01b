import Dispatch
import FerrySystem
import FoundationEssentials
import Pasteboard
import SelectionBackendCore
import UniformTypeIdentifiers

#if canImport(Glibc)
  import Glibc
#endif

/// Serves a copy on a selection from a background process when no broker runs, as xclip
/// does — but without keeping the caller's terminal or `$(…)` waiting.
///
/// The copying command starts this same executable again, detached (`setsid`, standard
/// output and error on `/dev/null`), hands it the bytes as its standard input, a file in
/// memory (`memfd_create(2)`: never on a disk, so a `--sensitive` copy never touches one) that
/// the child maps instead of reading, and returns as soon as the child reports that it owns
/// the selection. The child serves until another client takes the selection.
///
/// Through a pipe, a 100 MiB copy was copied into the pipe and out of it again in 64 KiB
/// steps, each a wake-up of the other process: 190 ms of pbcopy's 345
/// (docs/log/2026-12-02-performance.md, "Wayland").
public enum DetachedSelectionServer {
  /// The argument that makes an executable act as the server.
  public static let flag = "--x-serve-selection"

  /// Starts the server for `representations` on `selection` and waits until it owns it.
  ///
  /// - Throws: ``CommandFailure`` (status 3 without a display, 4 when the child does not
  ///   report in time).
  public static func spawn(
    selection: SelectionRole, display: String?, representations: [(UTType, Data)], concealed: Bool
  ) throws {
    var arguments = [executablePath(), flag, selection.rawValue, display ?? ""]
    arguments.append(concealed ? "concealed" : "plain")
    arguments += representations.map { "\($0.0.identifier)=\($0.1.count)" }
    let memory: FileDescriptor
    let status: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
    do {
      memory = try FileDescriptor.memoryFile(named: "ferry-copy")
      status = try FileDescriptor.closeOnExecPipe()
    } catch {
      throw CommandFailure("cannot start the selection server: \(error)", status: .io)
    }
    defer { try? memory.close() }
    do {
      var offset = 0
      for (_, bytes) in representations {
        _ = try bytes.withUnsafeBytes { try memory.writeAll(toAbsoluteOffset: Int64(offset), $0) }
        offset = pageAligned(offset + bytes.count)
      }
    } catch {
      try? status.readEnd.close()
      try? status.writeEnd.close()
      throw CommandFailure("cannot hand the copy to the selection server: \(error)", status: .io)
    }
    // The server inherits none of the caller's descriptors but these: a terminal's or a test
    // harness's descriptor held by the server would make whoever waits on it wait until the
    // selection changes hands.
    let launch = ChildLaunch(
      path: arguments[0], arguments: arguments,
      descriptors: [
        .duplicate(memory, as: 0), .open("/dev/null", as: 1, .writeOnly),
        .open("/dev/null", as: 2, .writeOnly),
        .duplicate(status.writeEnd, as: 3), .closeAll(from: 4),
      ],
      group: .ownSession)
    let spawned = Result { () throws(Errno) in try launch.spawn() }
    try? status.writeEnd.close()
    if case .failure(let error) = spawned {
      try? status.readEnd.close()
      throw CommandFailure("cannot start the selection server: \(error)", status: .io)
    }
    let answer = Report.read(from: status.readEnd, within: .seconds(5))
    try? status.readEnd.close()
    switch answer {
    case .ready?: return
    case nil: throw CommandFailure("the selection server did not start in time", status: .timeout)
    case .noDisplay(let message)?: throw CommandFailure(message, status: .noDisplayNoBroker)
    case .failed(let message)?: throw CommandFailure(message, status: .io)
    }
  }

  private static func executablePath() -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    return count > 0
      ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      : CommandLine.arguments[0]
  }

  /// Where the next representation starts in the memory file: each at a page of its own, so
  /// that each is mapped on its own.
  private static func pageAligned(_ offset: Int) -> Int {
    let page = sysconf(Int32(_SC_PAGESIZE))
    return (offset + page - 1) / page * page
  }

  /// The child's side: maps the bytes of standard input, owns the selection, reports
  /// `ready` on descriptor 3, and serves until another client takes the selection.
  ///
  /// `arguments` are those after ``flag``: selection, display, `concealed|plain`, then
  /// `type=length` for each representation in order.
  public static func serve(_ arguments: [String]) -> Never {
    func report(_ report: Report) {
      _ = try? FileDescriptor(rawValue: 3).writeAll(Array((report.line + "\n").utf8))
    }
    guard arguments.count >= 3 else {
      report(.failed("bad server arguments"))
      exit(2)
    }
    guard let selection = SelectionRole(rawValue: arguments[0]) else {
      report(.failed("no selection named \(arguments[0])"))
      exit(2)
    }
    let display = arguments[1].isEmpty ? nil : arguments[1]
    let concealed = arguments[2] == "concealed"
    var representations: [PasteboardRepresentation] = []
    var offset = 0
    for spec in arguments.dropFirst(3) {
      guard let equals = spec.lastIndex(of: "="),
        let length = Int(spec[spec.index(after: equals)...]),
        let type = UTType(String(spec[..<equals]))
          ?? Optional(UTType(exportedAs: String(spec[..<equals])))
      else { continue }
      do {
        let bytes = try Data(mapping: .standardInput, offset: offset, count: length)
        representations.append(.data(bytes, type: type))
      } catch {
        report(.failed("cannot map the copy handed over: \(error)"))
        exit(2)
      }
      offset = pageAligned(offset + length)
    }
    try? FileDescriptor.standardInput.close()  // the mappings keep the pages
    if concealed { representations.append(.data(Data("secret".utf8), type: .passwordManagerHint)) }
    let item = PasteboardItem(
      representations: representations, options: concealed ? .concealed : [])
    let lost = DispatchSemaphore(value: 0)
    do {
      let connection = try DisplayServer.connect(displayName: display)
      connection.onConnectionLost { lost.signal() }
      let done = DispatchSemaphore(value: 0)
      let failure = LockedBox<Report?>(nil)
      Task {
        do {
          try await connection.own(selection, item: item, onlyIfUnowned: false) { lost.signal() }
        } catch {
          failure.set(Report(failure: error))
        }
        done.signal()
      }
      done.wait()
      if let failure = failure.get() {
        report(failure)
        exit(4)
      }
      report(.ready)
      try? FileDescriptor(rawValue: 3).close()
      lost.wait()
      connection.close()  // the connection's thread out of the C library before exit's destructors run
      exit(0)
    } catch {
      report(Report(failure: error))
      exit(3)
    }
  }
}

/// A value shared between a task and the thread waiting for it.
public final class LockedBox<Value: Sendable>: Sendable {
  private let value: TrackedMutex<Value>

  /// Creates a box holding `value`.
  public init(_ value: Value) { self.value = TrackedMutex(value) }

  /// The value.
  public func get() -> Value { value.withLock { $0 } }

  /// Replaces the value.
  public func set(_ newValue: Value) { value.withLock { $0 = newValue } }
}
