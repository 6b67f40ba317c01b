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

  /// Why a file could not be read: the system's words (`No such file or directory`).
  package struct ReadError: Error, CustomStringConvertible {
    package var description: String
  }

  /// The whole contents of the file at `path`, or why it cannot be read.
  package static func contents(of path: String) -> Result<[UInt8], ReadError> {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return .failure(ReadError(description: String(cString: strerror(errno)))) }
    defer { close(descriptor) }
    return contents(ofDescriptor: descriptor)
  }

  /// Everything `descriptor` gives until its end (a file, a pipe, a terminal), or why it
  /// cannot be read.
  package static func contents(ofDescriptor descriptor: Int32) -> Result<[UInt8], ReadError> {
    var status = stat()
    let expected = fstat(descriptor, &status) == 0 ? Int(status.st_size) : 0
    var bytes = [UInt8](repeating: 0, count: max(expected + 1, 64 << 10))
    var count = 0
    while true {
      if count == bytes.count { bytes += [UInt8](repeating: 0, count: bytes.count) }
      let got = bytes.withUnsafeMutableBytes { buffer in
        systemRead(descriptor, buffer.baseAddress! + count, buffer.count - count)
      }
      if got < 0 {
        if errno == EINTR { continue }
        return .failure(ReadError(description: String(cString: strerror(errno))))
      }
      if got == 0 { break }
      count += got
    }
    bytes.removeSubrange(count...)
    return .success(bytes)
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

private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
  read(fd, buffer, count)
}

extension FileBytes {
  /// Whether `path` names a directory.
  static func isDirectory(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
  }
}
