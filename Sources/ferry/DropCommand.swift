import ArgumentParser
import Dispatch
import DragWindows
import FerryClient
import FerryCommandLine
import FerrySystem
import JSONText
import UniformTypeIdentifiers
import X11Selections

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension Ferry {
  /// `ferry drop`: a window that takes drops and prints them, as `dragon --target` does.
  struct DropCommand: ParsableCommand, AsyncParsableCommandRunner, WindowCommand {
    static let configuration = CommandConfiguration(
      commandName: "drop",
      abstract: "Open a window that takes drops from any X application, and print each drop.",
      discussion: """
        Each drop becomes an item on the drag pasteboard holding every type the source \
        offered, in its order. Printed: the dropped URIs, one per line (the text when the drop \
        has no URI list); with --print-path, paths for file URIs; with --json, one JSON object \
        per line with every type and, for text types, the text. When a broker runs, each drop \
        is also written to its drag pasteboard (`ferry paste -pboard drag` reads it). The \
        window's id is announced on standard error once it is mapped.
        """)

    @Flag(name: [.customShort("x"), .long], help: "Exit after the first drop.")
    var andExit = false
    @Flag(name: [.customShort("p"), .long], help: "Print paths instead of file URIs.")
    var printPath = false
    @Flag(help: "Print one JSON object per drop: types, and the data of text types.")
    var json = false
    @OptionGroup var windowOptions: WindowOptions<DropCommand>

    func run() throws {
      var copy = self
      try copy.runBlocking()
    }

    mutating func runBlocking() throws {
      let options = self
      try runUntilDone { try await options.serve() }
    }

    private func serve() async throws {
      let connection = try windowOptions.openDisplay()
      let window = try await connection.openDropWindow(
        title: windowOptions.title, geometry: windowOptions.geometry)
      reportError("ferry drop", "ready: window \(hex(window.window)); drop files or text on it")
      for await event in window.events {
        switch event {
        case .dropped(let drop):
          writeOut(DropPrinter.render(drop, json: json, paths: printPath))
          BrokerDrop.publish(drop)
          if andExit {
            window.close()
            return
          }
        case .failed(_, let reason):
          reportError("ferry drop", "a drop could not be read: \(reason)")
        case .entered, .left:
          break
        case .closed:
          return
        }
      }
      throw CommandFailure("the connection to the X display was lost", status: .noDisplayNoBroker)
    }
  }
}

/// Hands drops to a running broker's drag pasteboard.
enum BrokerDrop {
  /// Writes `drop` to the broker's `drag` pasteboard, if a broker runs; says why on standard
  /// error when one runs and refuses.
  static func publish(_ drop: Drop) {
    let client: BrokerClient
    do {
      client = try BrokerClient.connect(timeout: .seconds(2), clientName: "ferry drop")
    } catch {
      if error.code != .noBroker {
        reportError("ferry drop", "the broker did not take the drop: \(error.message)")
      }
      return
    }
    defer { client.close() }
    var seen = Set<String>()
    let representations = drop.received.filter { seen.insert($0.type.identifier).inserted }.map {
      BrokerClient.Representation.data($0.data, type: $0.type.identifier)
    }
    do {
      try client.write(representations, to: "drag")
    } catch {
      reportError("ferry drop", "the broker did not take the drop: \(error.message)")
    }
  }
}

/// How `ferry drop` prints a drop.
enum DropPrinter {
  static func render(_ drop: Drop, json: Bool, paths: Bool) -> String {
    if json { return jsonLine(drop) + "\n" }
    let uris = drop.uris
    guard !uris.isEmpty else {
      guard let text = drop.text else { return "" }
      return text.hasSuffix("\n") ? text : text + "\n"
    }
    return uris.map { paths ? path(of: $0) : $0 }.map { $0 + "\n" }.joined()
  }

  /// The path of a `file:` URI, percent-decoded; other URIs as they are.
  static func path(of uri: String) -> String {
    guard uri.hasPrefix("file:"), let url = URL(string: uri), url.isFileURL else { return uri }
    return url.path
  }

  static func jsonLine(_ drop: Drop) -> String {
    let types: [CompactJSON] = drop.received.map { received in
      var entry: [(String, CompactJSON)] = [
        ("target", .string(received.target)), ("type", .string(received.type.identifier)),
        ("bytes", .integer(received.data.count)),
      ]
      if let text = text(of: received) { entry.append(("text", .string(text))) }
      return .object(entry)
    }
    var object: [(String, CompactJSON)] = [
      ("source", .string(hex(drop.source))), ("action", .string(drop.action.rawValue)),
      ("offered", .strings(drop.offered)), ("types", .array(types)),
    ]
    if !drop.uris.isEmpty {
      object.append(("uris", .strings(drop.uris)))
      object.append(("paths", .strings(drop.uris.map(path(of:)))))
    }
    return Output.json(.object(object))
  }

  /// The text of a text type: Latin-1 for `STRING`, else UTF-8 when valid.
  static func text(of received: Drop.Received) -> String? {
    guard received.type.conforms(to: .text) else { return nil }
    if received.target == "STRING" {
      return String(decoding: received.data.map { UInt16($0) }, as: UTF16.self)
    }
    return String(validating: Array(received.data), as: UTF8.self)
  }
}

// MARK: Shared by drag and drop

func hex(_ window: XWindow) -> String { "0x" + String(window.rawValue, radix: 16) }

/// Writes to standard output at once (no buffering: a script reads each drop as it comes).
func writeOut(_ text: String) {
  guard !text.isEmpty else { return }
  Output.write(text)
}

/// Runs `body` from the synchronous command and waits for it, keeping its error.
func runUntilDone(_ body: @escaping @Sendable () async throws -> Void) throws {
  let outcome = LockedOutcome()
  let done = DispatchSemaphore(value: 0)
  Task {
    do { try await body() } catch { outcome.set(error) }
    done.signal()
  }
  done.wait()
  if let error = outcome.get() { throw error }
}

/// The error of a command's task, handed to the main thread.
final class LockedOutcome: @unchecked Sendable {
  private let error = TrackedMutex<(any Error)?>(nil)
  func set(_ error: any Error) {
    self.error.withLock { $0 = error }
  }
  func get() -> (any Error)? {
    error.withLock { $0 }
  }
}
