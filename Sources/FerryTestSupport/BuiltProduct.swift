import Foundation

/// The package's own executables, built beside the test bundle by `swift build --build-tests`.
///
/// ```swift
/// let fixture = try BuiltProduct.path("HistoryFixture")
/// ```
public enum BuiltProduct {
  /// The absolute path of the executable product `name`.
  ///
  /// - Throws: ``PeerUnavailable`` when it was not built.
  public static func path(_ name: String) throws -> String {
    let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let candidates = [directory, directory.deletingLastPathComponent()].map {
      $0.appendingPathComponent(name).path
    }
    guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) })
    else {
      throw PeerUnavailable(program: "\(name) (build it with `swift build --build-tests`)")
    }
    return found
  }
}
