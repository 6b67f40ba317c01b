import FerryTestSupport
import Foundation
import Testing

/// The Python peers under `Tests/Peers/`, run with the system interpreter (the one that has
/// python3-gi, PyQt5 and tkinter).
enum ScriptPeer: String {
  case gtk = "gtk_clipboard.py"
  case tk = "tk_clipboard.py"
  /// Owns `CLIPBOARD` or `PRIMARY` only (Qt knows no other selection).
  case qt = "qt_clipboard.py"

  private static let gtkCheck = OnceOffThePool {
    try check(
      module: "gtk",
      ["import gi", "gi.require_version('Gtk', '3.0')", "from gi.repository import Gtk"])
  }
  private static let tkCheck = OnceOffThePool { try check(module: "tk", ["import tkinter"]) }
  private static let qtCheck = OnceOffThePool {
    try check(module: "qt", ["from PyQt5.QtGui import QGuiApplication"])
  }

  /// The command line that runs this peer with `arguments`.
  func command(_ arguments: [String]) async throws -> [String] {
    let check =
      switch self {
      case .gtk: Self.gtkCheck
      case .tk: Self.tkCheck
      case .qt: Self.qtCheck
      }
    let python = try await check.value
    return [python, "-u", PeerSources.path(rawValue)] + arguments
  }

  /// Starts the peer.
  func start(_ arguments: [String], display: String) async throws -> PeerProcess {
    try await startPeer(try await command(arguments), display: display)
  }

  /// Runs the peer to completion.
  func run(_ arguments: [String], display: String) async throws -> PeerProcess.Result {
    try await runPeer(try await command(arguments), display: display)
  }

  private static func check(module: String, _ statements: [String]) throws -> String {
    guard let python = Peers.systemPython else {
      throw PeerUnavailable(program: "/usr/bin/python3")
    }
    let result = try PeerProcess.run(
      [python, "-c", statements.joined(separator: "; ")], display: nil)
    guard result.status == 0 else {
      let package =
        switch module {
        case "gtk": "python3-gi with GTK 3 (gir1.2-gtk-3.0)"
        case "qt": "python3-pyqt5"
        default: "python3-tk"
        }
      throw PeerUnavailable(program: package)
    }
    return python
  }
}

/// One `TARGET -> …` line of a script peer's `read`.
struct ScriptReadLine {
  var target: String
  /// `nil` when the owner refused.
  var fields: [String: String]?

  /// Parses the `read` output of a script peer.
  static func parse(_ output: String) -> [String: ScriptReadLine] {
    var lines: [String: ScriptReadLine] = [:]
    for line in output.split(separator: "\n") {
      guard let arrow = line.range(of: " -> ") else { continue }
      let target = String(line[..<arrow.lowerBound])
      let rest = line[arrow.upperBound...]
      if rest.hasPrefix("none") {
        lines[target] = ScriptReadLine(target: target, fields: nil)
        continue
      }
      var fields: [String: String] = [:]
      for word in rest.split(separator: " ") {
        let parts = word.split(separator: "=", maxSplits: 1)
        fields[String(parts[0])] = parts.count == 2 ? String(parts[1]) : String(parts[0])
      }
      lines[target] = ScriptReadLine(target: target, fields: fields)
    }
    return lines
  }
}

/// UTF-8 of `text` in lowercase hex, as the script peers print it.
func utf8Hex(_ text: String) -> String { Data(text.utf8).hex }
