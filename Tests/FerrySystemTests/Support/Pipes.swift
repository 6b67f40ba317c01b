import FerrySystem

/// Runs `body` with a new pipe and closes both ends afterwards; `body` closes neither (a
/// descriptor closed twice may close another test's, opened in between).
func withPipe<T>(_ body: (_ readEnd: FileDescriptor, _ writeEnd: FileDescriptor) throws -> T) throws
  -> T
{
  let (readEnd, writeEnd) = try FileDescriptor.closeOnExecPipe()
  defer {
    try? readEnd.close()
    try? writeEnd.close()
  }
  return try body(readEnd, writeEnd)
}
