import ArgumentParser
import DragWindows
import FerryCommandLine
import X11Selections

/// A command that opens a window: `ferry drag`, `ferry drop`.
protocol WindowCommand: ParsableCommand {}

extension WindowCommand {
  /// The window's title when `--title` is not given: `ferry drag` for `drag`.
  static var defaultTitle: String { "ferry \(configuration.commandName ?? "")" }
}

/// The options of a command's window: where it goes, its title, and the display it opens on.
struct WindowOptions<Command: WindowCommand>: ParsableArguments {
  @Option(
    help: ArgumentHelp("Window size and position, as WxH+X+Y.", valueName: "geometry"),
    transform: parseGeometry)
  var geometry: WindowGeometry?
  @Option(help: ArgumentHelp("The window title.", valueName: "title"))
  var title = Command.defaultTitle
  @Option(help: ArgumentHelp("The display; $DISPLAY by default.", valueName: "name"))
  var display: String?

  /// Opens the display, or fails with status 3.
  func openDisplay() throws -> X11Display {
    do {
      return try X11Display(name: display)
    } catch {
      throw CommandFailure("\(error)", status: .noDisplayNoBroker)
    }
  }
}

/// Parses `--geometry`.
func parseGeometry(_ text: String) throws -> WindowGeometry {
  guard let geometry = WindowGeometry(text) else {
    throw ValidationError("'\(text)' is not a geometry (give WxH+X+Y, such as 300x200+0+0)")
  }
  return geometry
}
