import FerrySystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Small, allocation-light file reading for the MIME database and declaration files.
package enum FileBytes {
  /// The whole contents of the file at `path`, or `nil` when it cannot be read.
  static func read(_ path: String) -> [UInt8]? {
    try? contents(of: path).get()
  }

  /// The whole contents of the file at `path`, or why it cannot be read (its `Errno`
  /// describes itself in the system's words: `No such file or directory`).
  package static func contents(of path: String) -> Result<[UInt8], Errno> {
    let descriptor: FileDescriptor
    do {
      descriptor = try FileDescriptor.open(path, .readOnly, options: .closeOnExec)
    } catch {
      return .failure(error as? Errno ?? .ioError)
    }
    defer { try? descriptor.close() }
    return Result { () throws(Errno) in try descriptor.readToEnd() }
  }

  /// Everything `descriptor` gives until its end (a file, a pipe, a terminal), or why it
  /// cannot be read.
  package static func contents(ofDescriptor descriptor: Int32) -> Result<[UInt8], Errno> {
    Result { () throws(Errno) in try FileDescriptor(rawValue: descriptor).readToEnd() }
  }

  /// Whether a file or directory exists at `path`.
  static func exists(_ path: String) -> Bool {
    access(path, F_OK) == 0
  }

  /// The names in the directory at `path`, sorted, or an empty list.
  static func directoryEntries(_ path: String) -> [String] {
    guard let directory = opendir(path) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
        pointer.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
  }

  /// Splits bytes into lines, without the line breaks.
  static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
    bytes.split(separator: 0x0A, omittingEmptySubsequences: true)
  }
}

extension FileBytes {
  /// Whether `path` names a directory.
  static func isDirectory(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
  }
}
