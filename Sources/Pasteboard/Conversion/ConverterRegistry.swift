import FerrySystem
import UniformTypeIdentifiers

/// The converters pasteboards use: the built-in ones, then those registered by Swift code
/// (transferable types, custom converters) and by declaration files, in registration order.
///
/// ```swift
/// ConverterRegistry.shared.register(Profile.self)   // profile JSON → its name as text, …
/// ```
public final class ConverterRegistry: Sendable {
  /// The registry every pasteboard uses unless given another.
  public static let shared = ConverterRegistry()

  private let registered = TrackedMutex<(generation: Int, converters: [any PasteboardConverter])>(
    (0, []))
  private let spoolDirectory = TrackedMutex<String?>(nil)

  /// The converters every registry starts with: text encodings, then file lists.
  public static let builtIn: [any PasteboardConverter] = [
    TextEncodingConverter(), FileListConverter(),
  ]

  /// Creates a registry holding the built-in converters.
  public init() {}

  /// The directory under which items write conversions too large to keep in memory (a
  /// directory per item, removed with it); the temporary directory when `nil`. The broker sets
  /// its spool, on a disk rather than a RAM-backed `/tmp`.
  public var spoolParent: String? {
    get { spoolDirectory.withLock { $0 } }
    set { spoolDirectory.withLock { $0 = newValue } }
  }

  /// Every converter, built-in ones first.
  public var converters: [any PasteboardConverter] { snapshot.converters }

  /// The converters with a number that grows with every registration, so items can tell
  /// when to plan their conversions again.
  var snapshot: (generation: Int, converters: [any PasteboardConverter]) {
    let (generation, registered) = registered.withLock { $0 }
    return (generation, Self.builtIn + registered)
  }

  /// Adds a converter after those already registered. Items on pasteboards see it at their
  /// next request.
  public func register(_ converter: some PasteboardConverter) {
    registered.withLock {
      $0.converters.append(converter)
      $0.generation += 1
    }
  }
}

extension ConverterRegistry {
  /// Replaces, in one step, the registered converters `isReplaced` picks by `converters`,
  /// placed where the first replaced one was (after all others when none was), so reloading
  /// a declaration file keeps its converters' precedence.
  func replace(
    where isReplaced: (any PasteboardConverter) -> Bool, with converters: [any PasteboardConverter]
  ) {
    registered.withLock {
      let index = $0.converters.firstIndex(where: isReplaced) ?? $0.converters.endIndex
      $0.converters.removeAll(where: isReplaced)
      $0.converters.insert(contentsOf: converters, at: index)
      $0.generation += 1
    }
  }
}
