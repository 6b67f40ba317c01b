import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The C peers in `Tests/Peers/` (plain Xlib programs SwiftPM does not build), compiled with
/// `cc … -lX11` on first use.
///
/// ```swift
/// let probe = try CompiledPeer.build("xselprobe.c")
/// let owner = try PeerProcess([probe, "own", "CLIPBOARD"], display: xvfb.name)
/// ```
public enum CompiledPeer {
  /// `Tests/Peers/`.
  public static let sourceDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // FerryTestSupport
    .deletingLastPathComponent()  // Sources
    .deletingLastPathComponent()  // the package
    .appendingPathComponent("Tests/Peers")

  /// Compiles `Tests/Peers/<source>` into the temporary directory, named by a hash of its
  /// source, so runs reuse it and an edited source is rebuilt; concurrent test processes each
  /// build under a private name and rename into place. Blocks while `cc` runs: call it off
  /// the concurrency pool, once per process.
  ///
  /// - Parameters:
  ///   - packageSources: More C files to compile with it, as paths in the package (the
  ///     Wayland peers' protocol glue, `Sources/CWaylandDataControl/…-protocol.c`).
  ///   - includes: Header directories, as paths in the package.
  ///   - libraries: What to link, `-l` left out.
  /// - Returns: The executable's path.
  /// - Throws: ``PeerUnavailable`` when `cc` or the Xlib (or Wayland) headers are missing,
  ///   ``CompiledPeerBuildFailed`` when the source does not compile.
  public static func build(
    _ source: String, packageSources: [String] = [], includes: [String] = [],
    libraries: [String] = ["X11"]
  ) throws -> String {
    let name = (source as NSString).deletingPathExtension
    guard let cc = Peers.path(of: "cc") else {
      throw PeerUnavailable(program: "cc (to build \(name))")
    }
    let package = sourceDirectory.deletingLastPathComponent().deletingLastPathComponent()
    let path = sourceDirectory.appendingPathComponent(source).path
    let others = packageSources.map { package.appendingPathComponent($0).path }
    var hash = UInt64(0xCBF2_9CE4_8422_2325)  // FNV-1a, of every source
    for file in [path] + others {
      hash = try Data(contentsOf: URL(fileURLWithPath: file)).reduce(hash) {
        ($0 ^ UInt64($1)) &* 0x100_0000_01B3
      }
    }
    let output = FileManager.default.temporaryDirectory
      .appendingPathComponent("ferry-\(name)-\(String(hash, radix: 16))").path
    if FileManager.default.isExecutableFile(atPath: output) { return output }
    let scratch = "\(output).\(getpid())"
    let flags = includes.map { "-I\(package.appendingPathComponent($0).path)" }
    let result = try PeerProcess.run(
      [cc, "-O1"] + flags + ["-o", scratch, path] + others + libraries.map { "-l\($0)" },
      display: nil, timeout: .seconds(60))
    guard result.status == 0 else {
      if result.stderrText.contains("X11/Xlib.h: No such file") {
        throw PeerUnavailable(program: "libx11-dev (to build \(name))")
      }
      if result.stderrText.contains("wayland-client.h: No such file") {
        throw PeerUnavailable(program: "libwayland-dev (to build \(name))")
      }
      throw CompiledPeerBuildFailed(source: source, output: result.stderrText)
    }
    guard rename(scratch, output) == 0 else {
      throw CompiledPeerBuildFailed(
        source: source, output: "rename: \(String(cString: strerror(errno)))")
    }
    return output
  }
}

/// A C peer did not compile.
public struct CompiledPeerBuildFailed: Error, CustomStringConvertible {
  public var source: String
  public var output: String
  public var description: String { "\(source) did not compile:\n\(output)" }
}
