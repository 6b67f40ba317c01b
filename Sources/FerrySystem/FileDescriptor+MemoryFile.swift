import CFerrySystem
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension FileDescriptor {
  /// A new file that lives in memory only (`memfd_create(2)`), close-on-exec, numbered above
  /// standard error: bytes handed to another process whole, without a pipe's copy in and
  /// copy out and never on a disk.
  ///
  /// - Throws: `Errno` when the file cannot be made.
  public static func memoryFile(named name: String) throws(Errno) -> FileDescriptor {
    let descriptor = cferry_memory_file(name)
    guard descriptor >= 0 else { throw Errno.last }
    guard descriptor <= 2 else { return FileDescriptor(rawValue: descriptor) }
    let moved = fcntl(descriptor, F_DUPFD_CLOEXEC, 3)
    let error = Errno.last
    Glibc.close(descriptor)
    guard moved >= 0 else { throw error }
    return FileDescriptor(rawValue: moved)
  }
}

extension Data {
  /// `count` bytes of the file `descriptor` from `offset` (a multiple of the page size),
  /// mapped, not read: the pages are the file's own, and they are unmapped when the last copy
  /// of the `Data` goes. Mapped with `MAP_POPULATE`, so that the first reader takes no page
  /// faults.
  ///
  /// - Throws: `Errno` when the bytes cannot be mapped.
  public init(mapping descriptor: FileDescriptor, offset: Int, count: Int) throws(Errno) {
    guard count > 0 else {
      self = Data()
      return
    }
    let address = mmap(
      nil, count, PROT_READ, MAP_PRIVATE | MAP_POPULATE, descriptor.rawValue, off_t(offset))
    guard let address, address != MAP_FAILED else { throw Errno.last }
    self = Data(
      bytesNoCopy: address, count: count,
      deallocator: .custom { pointer, count in munmap(pointer, count) })
  }
}
