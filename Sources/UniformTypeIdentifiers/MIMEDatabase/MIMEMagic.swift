import FerrySystem

/// Content sniffing with the shared-mime-info magic rules (`<mime dir>/magic`), for data
/// whose type nobody named.
///
/// The file lists sections `[priority:type]`, highest priority first, each with match lines
/// `[indent]>offset=length value [&mask] [~word size] [+range]`; a line deeper by one indent
/// is a sub-match that must also hold. The first section that matches names the type.
/// Spec: https://specifications.freedesktop.org/shared-mime-info-spec/latest/ (§ magic).
///
/// Read once, on the first sniff.
package enum MIMEMagic {
  struct Match {
    var offset: Int
    var range: Int
    var value: [UInt8]
    var mask: [UInt8]?
    var children: [Match]
  }

  struct Section {
    var priority: Int
    var mimeType: String
    var matches: [Match]
  }

  private static let sections = TrackedMutex<[Section]?>(nil)

  /// The largest number a magic file may write (an offset, a range, a priority, an indent).
  static let largestNumber = Int(UInt32.max)
  /// The deepest a rule may be indented: matching recurses once per level, and 60,000 levels
  /// (0.7 MB of `magic`) overflowed the stack (issue 36). freedesktop.org's own file stays
  /// within single digits.
  static let deepestIndent = 32

  /// The MIME type the magic rules give `bytes` (only its first 4 KiB or so are looked at).
  package static func mimeType(of bytes: [UInt8]) -> String? {
    let table = sections.withLock { cached -> [Section] in
      if let cached { return cached }
      let loaded = SharedMIMEDatabase.defaultDirectories.flatMap { load($0 + "/magic") }
        .sorted { $0.priority > $1.priority }
      cached = loaded
      return loaded
    }
    for section in table where section.matches.contains(where: { matches($0, bytes) }) {
      return section.mimeType
    }
    return nil
  }

  static func matches(_ match: Match, _ bytes: [UInt8]) -> Bool {
    let width = match.value.count
    guard width > 0 else { return false }
    var found = false
    for start in match.offset...(match.offset + max(match.range, 1) - 1) {
      if start + width > bytes.count { break }
      var equal = true
      for index in 0..<width {
        let mask = match.mask?[index] ?? 0xFF
        if bytes[start + index] & mask != match.value[index] & mask {
          equal = false
          break
        }
      }
      if equal {
        found = true
        break
      }
    }
    guard found else { return false }
    return match.children.isEmpty || match.children.contains { matches($0, bytes) }
  }

  /// Parses a magic file; an unreadable or malformed file gives what parsed before the fault.
  static func load(_ path: String) -> [Section] {
    FileBytes.read(path).map(parse) ?? []
  }

  /// Parses the contents of a magic file; malformed contents give what parsed before the fault.
  static func parse(_ bytes: [UInt8]) -> [Section] {
    guard bytes.starts(with: Array("MIME-Magic\0\n".utf8)) else { return [] }
    var sections: [Section] = []
    var index = 12
    // A number past `largestNumber` is malformed: no real offset, range or priority comes
    // near it, and an unbounded one would overflow here or in `matches`.
    func readNumber() -> Int? {
      var value = 0
      var digits = 0
      while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
        value = value * 10 + Int(bytes[index] - 0x30)
        guard value <= largestNumber else { return nil }
        index += 1
        digits += 1
      }
      return digits > 0 ? value : nil
    }
    while index < bytes.count {
      guard bytes[index] == UInt8(ascii: "[") else { break }
      index += 1
      guard let priority = readNumber(), index < bytes.count, bytes[index] == UInt8(ascii: ":")
      else { break }
      index += 1
      let start = index
      while index < bytes.count, bytes[index] != UInt8(ascii: "]") { index += 1 }
      let mimeType = String(decoding: bytes[start..<index], as: UTF8.self)
      index += 2  // "]\n"
      var stack: [(indent: Int, match: Match)] = []
      var roots: [Match] = []
      func pop(to indent: Int) {
        while let last = stack.last, last.indent >= indent {
          stack.removeLast()
          if !stack.isEmpty {
            stack[stack.count - 1].match.children.append(last.match)
          } else {
            roots.append(last.match)
          }
        }
      }
      while index < bytes.count, bytes[index] != UInt8(ascii: "[") {
        let indent = readNumber() ?? 0
        // Too deep is malformed: the parse ends with what came before, as for other faults.
        guard indent <= deepestIndent, index < bytes.count, bytes[index] == UInt8(ascii: ">")
        else { return sections }
        index += 1
        guard let offset = readNumber(), index + 2 < bytes.count, bytes[index] == UInt8(ascii: "=")
        else {
          return sections
        }
        let length = Int(bytes[index + 1]) << 8 | Int(bytes[index + 2])
        index += 3
        guard index + length <= bytes.count else { return sections }
        let value = Array(bytes[index..<index + length])
        index += length
        var mask: [UInt8]?
        var range = 1
        while index < bytes.count, bytes[index] != 0x0A {
          switch bytes[index] {
          case UInt8(ascii: "&"):
            guard index + 1 + length <= bytes.count else { return sections }
            mask = Array(bytes[index + 1..<index + 1 + length])
            index += 1 + length
          case UInt8(ascii: "~"):
            index += 1
            _ = readNumber()
          case UInt8(ascii: "+"):
            index += 1
            range = readNumber() ?? 1
          default:
            index += 1
          }
        }
        index += 1
        pop(to: indent)
        stack.append(
          (indent, Match(offset: offset, range: range, value: value, mask: mask, children: [])))
      }
      pop(to: 0)
      sections.append(Section(priority: priority, mimeType: mimeType, matches: roots))
    }
    return sections
  }
}

extension UTType {
  /// The type the shared-mime-info magic rules give `bytes`, if any: how a tool that was given
  /// bytes without a name (`pbcopy < picture`) finds their type.
  ///
  /// ```swift
  /// UTType._sniffed(from: Array(pngBytes.prefix(4096)))   // public.png
  /// ```
  package static func _sniffed(from bytes: [UInt8]) -> UTType? {
    guard let mimeType = MIMEMagic.mimeType(of: bytes) else { return nil }
    return UTType(mimeType: mimeType)
  }
}
