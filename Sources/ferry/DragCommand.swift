import ArgumentParser
import DragWindows
import FerryCommandLine
import Pasteboard
import UniformTypeIdentifiers
import X11Selections

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension Ferry {
  /// `ferry drag`: a window of draggable files or data, as `dragon` is.
  struct DragCommand: ParsableCommand, AsyncParsableCommandRunner, WindowCommand {
    static let configuration = CommandConfiguration(
      commandName: "drag",
      abstract: "Open a window with one draggable entry per file; drop them on any X application.",
      discussion: """
        An entry delivers text/uri-list, the file-URL types, the paths as text and, for a \
        single file, its contents as the type its extension names. With --type, the files are \
        data: one entry holding one representation per file, in order, each of the type at \
        the same position (as `ferry copy` takes them). Shift while dragging asks for a move, \
        Ctrl+Shift for a link; Escape cancels. Files are never deleted, whatever the action.

        With --and-exit the status says how the first drag ended: 0 dropped, 1 not taken \
        (rejected, dropped nowhere, cancelled, or the target reported failure), 4 the target \
        stopped answering.
        """)

    @Flag(name: [.customShort("x"), .long], help: "Exit after the first drag ends.")
    var andExit = false
    @Flag(name: [.customShort("a"), .long], help: "One entry dragging all the files at once.")
    var all = false
    @Option(
      name: .long,
      help: ArgumentHelp(
        "The type of the file at the same position: drag data, not files.", valueName: "type"))
    var type: [String] = []
    @Option(
      help: ArgumentHelp("The action asked for: copy, move or link.", valueName: "action"),
      transform: parseAction)
    var action: DragAction = .copy
    @OptionGroup var windowOptions: WindowOptions<DragCommand>
    @Flag(
      name: [.customShort("v"), .long], help: "Say where each entry is, and how each drag ends.")
    var verbose = false
    @Argument(help: "The files.")
    var files: [String] = []

    func validate() throws {
      if files.isEmpty { throw ValidationError("Give at least one file.") }
      if !type.isEmpty && type.count != files.count {
        throw ValidationError(
          "Give one --type per file, or none (\(type.count) types for \(files.count) files).")
      }
      if !type.isEmpty && all {
        throw ValidationError("--all drags files; --type drags data: give one or the other.")
      }
    }

    func run() throws {
      var copy = self
      try copy.runBlocking()
    }

    mutating func runBlocking() throws {
      let entries = try makeEntries()
      let options = self
      try runUntilDone { try await options.serve(entries) }
    }

    /// The entries: data with `--type`, else files.
    func makeEntries() throws -> [DragEntry] {
      if !type.isEmpty {
        var representations: [PasteboardRepresentation] = []
        var described: [String] = []
        for (file, name) in zip(files, type) {
          let (identifier, data) = try CopyPlanner.representation(
            of: try InputReader.read(file: file), fileName: file, type: name)
          let resolved = TypeArgument.type(forIdentifier: identifier)
          representations.append(.data(data, type: resolved))
          described.append("\(resolved.identifier), \(data.count) bytes")
        }
        return [
          DragEntry(
            label: "data: " + described.joined(separator: "; "),
            item: PasteboardItem(representations: representations))
        ]
      }
      let urls = try files.map { file -> URL in
        guard FileManager.default.fileExists(atPath: file) else {
          throw CommandFailure("cannot drag \(file): no such file or directory", status: .io)
        }
        return URL(fileURLWithPath: file).standardizedFileURL
      }
      if all {
        return [
          DragEntry.files(urls, label: "\(urls.count) files: " + files.joined(separator: ", "))
        ]
      }
      return zip(urls, files).map { DragEntry.files([$0], label: $1) }
    }

    private func serve(_ entries: [DragEntry]) async throws {
      let connection = try windowOptions.openDisplay()
      let window = try await connection.openDragWindow(
        entries, title: windowOptions.title, geometry: windowOptions.geometry, action: action)
      if verbose {
        for (index, frame) in try await window.entryFrames().enumerated() {
          reportError(
            "ferry drag",
            "entry \(index + 1) at \(frame.x),\(frame.y) \(frame.width)x\(frame.height): \(entries[index].label)"
          )
        }
      }
      // Last, so that a script waiting for it has the entries' places too.
      reportError(
        "ferry drag",
        "ready: window \(hex(window.window)), \(entries.count) \(entries.count == 1 ? "entry" : "entries")"
      )
      for await event in window.events {
        switch event {
        case .started(let entry):
          if verbose { reportError("ferry drag", "dragging entry \(entry + 1)") }
        case .ended(let entry, let outcome):
          guard andExit else {
            if verbose || !outcome.isSuccess {
              reportError("ferry drag", "entry \(entry + 1): \(outcome)")
            }
            continue
          }
          window.close()
          switch outcome {
          case .dropped:
            if verbose { reportError("ferry drag", "entry \(entry + 1): \(outcome)") }
            return
          case .targetDidNotAnswer: throw CommandFailure("drag: \(outcome)", status: .timeout)
          default: throw CommandFailure("drag: \(outcome)", status: .nothingAvailable)
          }
        case .couldNotStart(let entry, let reason):
          reportError("ferry drag", "entry \(entry + 1): \(reason)")
        case .closed:
          return
        }
      }
      throw CommandFailure("the connection to the X display was lost", status: .noDisplayNoBroker)
    }
  }
}

/// Parses `--action`.
func parseAction(_ text: String) throws -> DragAction {
  guard let action = DragAction(rawValue: text.lowercased()),
    [.copy, .move, .link].contains(action)
  else {
    throw ValidationError("'\(text)' is not an action (give copy, move or link)")
  }
  return action
}
