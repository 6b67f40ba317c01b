#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension ChildLaunch {
  /// This process's environment as `NAME=value` strings, with `extra` set on top (replacing
  /// a variable of the same name), for ``environment``.
  public static func environment(adding extra: [String: String]) -> [String] {
    var strings: [String] = []
    var entry = environ
    while let pointer = entry.pointee {
      let string = String(cString: pointer)
      let name = string.prefix { $0 != "=" }
      if extra[String(name)] == nil { strings.append(string) }
      entry += 1
    }
    return strings + extra.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
  }
}
