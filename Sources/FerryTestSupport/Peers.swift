import Foundation

/// Finding the peer programs the interop tests drive.
public enum Peers {
  /// The absolute path of `program` on `PATH`, or `nil`.
  public static func path(of program: String) -> String? {
    if program.hasPrefix("/") {
      return FileManager.default.isExecutableFile(atPath: program) ? program : nil
    }
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
      let candidate = "\(directory)/\(program)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  /// Checks that each of `programs` is on `PATH`, as a test or suite that needs them starts.
  ///
  /// - Throws: ``PeerUnavailable`` naming the first one that is not.
  public static func require(_ programs: String...) throws {
    for program in programs where path(of: program) == nil {
      throw PeerUnavailable(program: program)
    }
  }

  /// The system Python that has python3-gi and tkinter (not a pyenv shim).
  public static var systemPython: String? {
    FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") ? "/usr/bin/python3" : nil
  }
}

/// A peer program the test needs is not installed.
public struct PeerUnavailable: Error, CustomStringConvertible {
  public var program: String
  /// Names the missing program (or package) in the message.
  public init(program: String) { self.program = program }
  public var description: String { "\(program) is not installed (Scripts/bootstrap installs it)" }
}
