#if canImport(Glibc)
  import Glibc
#endif

/// One fuzz target: a parser or state machine fed one input, checking its own invariants.
struct FuzzTarget: Sendable {
  /// The name Scripts/fuzz and FERRY_FUZZ_TARGET use; also the seed directory's name.
  var name: String
  /// Runs one input; a broken invariant ends the process through ``FuzzCheck/require(_:_:)``.
  var run: @Sendable ([UInt8]) -> Void

  /// Every target, in the order Scripts/fuzz runs them.
  static let all: [FuzzTarget] = [
    frameTarget, jsonTarget, messagesTarget, declarationsTarget, convertersTarget, manifestTarget,
    mimeDatabaseTarget, mimeMagicTarget, mimeXMLTarget, selectionReadTarget, incrementalSendTarget,
    multipleTarget, xdndMessageTarget, dropTargetTarget, dragSourceTarget, configurationTarget,
    targetsTarget, imagePNGTarget, imageJPEGTarget, imageBMPTarget, imageTIFFTarget,
    imageGIFTarget, imageWebPTarget, textTranscoderTarget, waylandEventsTarget, syncLinkTarget,
  ]

  /// The target FERRY_FUZZ_TARGET names, if any.
  static let selected: FuzzTarget? = {
    guard let name = getenv("FERRY_FUZZ_TARGET").map({ String(cString: $0) }) else { return nil }
    return all.first { $0.name == name }
  }()
}

/// A broken invariant: says which, then aborts, which libFuzzer reports as a crash and keeps
/// the input.
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
  guard !condition else { return }
  printError("fuzz invariant broken: \(message())")
  abort()
}

/// Writes a line to standard error.
func printError(_ line: String) {
  let bytes = Array((line + "\n").utf8)
  _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}
