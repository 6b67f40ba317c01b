import FoundationEssentials

extension X11Display {
  /// The application behind an X window, for a history entry's source: the class of its
  /// `WM_CLASS` (`Gnome-terminal`, `firefox`), else the command name of the process its
  /// `_NET_WM_PID` names, when that process runs on this machine; `nil` when the window says
  /// neither (xclip's and xsel's windows say nothing) or is gone.
  ///
  /// Reads two properties of `window` and nothing else: it never waits on its owner.
  public func application(owning window: XWindow) async -> String? {
    guard window != .none else { return nil }
    let found = try? await loop.perform { session -> (wmClass: Data?, pid: UInt?) in
      let connection = session.connection
      let wmClass = connection.property(of: window, connection.atom("WM_CLASS"), delete: false)
      let pid = connection.property(of: window, connection.atom("_NET_WM_PID"), delete: false)
      connection.sync()  // a window gone meanwhile raises BadWindow: dropped here
      return (
        wmClass?.format == 8 ? wmClass?.bytes : nil, pid?.format == 32 ? pid?.values.first : nil
      )
    }
    if let bytes = found?.wmClass, let name = Self.className(fromWMClass: bytes) { return name }
    if let pid = found?.pid, pid > 0, let command = Self.commandName(ofProcess: Int(pid)) {
      return command
    }
    return nil
  }

  /// The class (the second string) of a `WM_CLASS` value, or the instance when it is alone.
  static func className(fromWMClass bytes: Data) -> String? {
    let parts = bytes.split(separator: 0, omittingEmptySubsequences: true).map {
      String(decoding: $0, as: UTF8.self)
    }
    return (parts.count > 1 ? parts[1] : parts.first).flatMap { $0.isEmpty ? nil : $0 }
  }

  /// `/proc/PID/comm`, without its newline.
  static func commandName(ofProcess pid: Int) -> String? {
    guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/comm") else { return nil }
    let name = String(decoding: data.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
    return name.isEmpty ? nil : name
  }
}
