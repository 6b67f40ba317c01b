// The fuzzing program Scripts/fuzz builds with `--sanitize=fuzzer --sanitize=address`:
// libFuzzer supplies `main` and calls these; FERRY_FUZZ_TARGET names the target to run.
#if canImport(Glibc)
  import Glibc
#endif

/// libFuzzer's start-up hook: refuses to run without a known target.
@_cdecl("LLVMFuzzerInitialize")
func fuzzerInitialize(
  _ argc: UnsafeMutablePointer<Int32>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> Int32 {
  guard FuzzTarget.selected != nil else {
    let names = FuzzTarget.all.map(\.name).joined(separator: " ")
    printError("FERRY_FUZZ_TARGET must name a fuzz target: \(names)")
    exit(2)
  }
  return 0
}

/// libFuzzer's per-input hook.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  FuzzTarget.selected?.run(bytes)
  return 0
}
