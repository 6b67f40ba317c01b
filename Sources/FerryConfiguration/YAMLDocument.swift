internal import CYAML

/// A YAML document as the configuration file is read: libyaml's parser events composed into
/// nodes, each with the place it starts — what Yams's `compose(yaml:)` gave, without Yams
/// (whose Foundation brought ICU's 30 MB into `ferry`; docs/PERFORMANCE.md, "Size").
///
/// Tags are not resolved (the reader looks at the text and whether a scalar was plain),
/// aliases give the node their anchor named, and a mapping's keys must be distinct, as Yams
/// checked.
indirect enum YAMLNode {
  /// A scalar: its text, whether it was written plain (not quoted, not a block), where.
  case scalar(String, plain: Bool, YAMLMark)
  /// A sequence (`[a, b]` or `- a` lines).
  case sequence([YAMLNode], YAMLMark)
  /// A mapping's pairs, in the document's order.
  case mapping([(key: YAMLNode, value: YAMLNode)], YAMLMark)

  /// Where the node starts.
  var mark: YAMLMark {
    switch self {
    case .scalar(_, _, let mark), .sequence(_, let mark), .mapping(_, let mark): mark
    }
  }
}

/// A place in the text: line and column, each from 1 (columns count characters).
struct YAMLMark: Equatable {
  let line: Int
  let column: Int
}

/// Why a text is not a YAML document the reader can use.
enum YAMLError: Error, Equatable {
  /// libyaml's reader refused a character (a control character, bad UTF-8): its words, the
  /// offset in characters when it falls on one, and the character's value (-1 for none).
  case reader(problem: String, offset: Int?, value: Int32)
  /// The scanner, parser or composer's words and where.
  case syntax(problem: String, YAMLMark)
  /// A mapping gives a key twice: the key, and where it is first and second given.
  case duplicateKey(String, first: YAMLMark, second: YAMLMark)
  /// libyaml ran out of memory.
  case memory
}

extension YAMLNode {
  /// The document's root node, or `nil` for a text with no document (empty, or only
  /// comments).
  ///
  /// - Throws: ``YAMLError``; a second document is an error.
  static func compose(_ text: String) throws(YAMLError) -> YAMLNode? {
    let bytes = Array(text.utf8)
    return try bytes.withUnsafeBufferPointer { buffer throws(YAMLError) in
      let composer = YAMLComposer(text: text)
      yaml_parser_set_input_string(&composer.parser, buffer.baseAddress, buffer.count)
      return try composer.singleRoot()
    }
  }
}

/// libyaml's parser and the anchors seen so far.
private final class YAMLComposer {
  var parser = yaml_parser_t()
  let text: String
  var anchors: [String: YAMLNode] = [:]

  init(text: String) {
    self.text = text
    yaml_parser_initialize(&parser)
    yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
  }

  deinit { yaml_parser_delete(&parser) }

  /// One parsed event, deleted when dropped.
  final class Event {
    var event = yaml_event_t()
    deinit { yaml_event_delete(&event) }

    var type: yaml_event_type_t { event.type }
    var mark: YAMLMark {
      YAMLMark(line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1)
    }
    static func string(_ bytes: UnsafePointer<yaml_char_t>?) -> String? {
      bytes.map { String(cString: $0) }
    }
  }

  func parse() throws(YAMLError) -> Event {
    let event = Event()
    guard yaml_parser_parse(&parser, &event.event) == 1 else { throw error() }
    return event
  }

  /// The parser's error as a ``YAMLError``.
  func error() -> YAMLError {
    let problem = parser.problem.map { String(cString: $0) } ?? "unknown problem"
    switch parser.error {
    case YAML_MEMORY_ERROR:
      return .memory
    case YAML_READER_ERROR:
      // A byte offset; counted in characters when it falls on one.
      let utf8 = text.utf8
      let index = utf8.index(
        utf8.startIndex, offsetBy: parser.problem_offset, limitedBy: utf8.endIndex)?
        .samePosition(in: text)
      let offset = index.map { text.distance(from: text.startIndex, to: $0) }
      return .reader(problem: problem, offset: offset, value: parser.problem_value)
    default:
      return .syntax(
        problem: problem,
        YAMLMark(
          line: Int(parser.problem_mark.line) + 1, column: Int(parser.problem_mark.column) + 1))
    }
  }

  /// The one document's root, as Yams's `Parser.singleRoot()` composed it.
  func singleRoot() throws(YAMLError) -> YAMLNode? {
    _ = try parse()  // the stream's start
    guard parser.stream_end_produced == 0, try parse().type != YAML_STREAM_END_EVENT else {
      return nil
    }
    let root = try node(from: try parse())
    _ = try parse()  // the document's end
    let next = try parse()
    if next.type != YAML_STREAM_END_EVENT {
      throw .syntax(problem: "but found another document", next.mark)
    }
    return root
  }

  /// The most levels of sequences and mappings a document may nest: far past any
  /// configuration, and far short of the ~10,000 levels that overflowed the stack of this
  /// recursive composer (libyaml 0.2.5 sets no limit of its own).
  static let maximumDepth = 64

  func node(from event: Event, depth: Int = 0) throws(YAMLError) -> YAMLNode {
    if depth > Self.maximumDepth,
      event.type == YAML_SEQUENCE_START_EVENT || event.type == YAML_MAPPING_START_EVENT
    {
      throw .syntax(problem: "nested more than \(Self.maximumDepth) levels deep", event.mark)
    }
    switch event.type {
    case YAML_ALIAS_EVENT:
      guard let name = Event.string(event.event.data.alias.anchor), let node = anchors[name] else {
        throw .syntax(problem: "found undefined alias", event.mark)
      }
      return node
    case YAML_SCALAR_EVENT:
      let scalar = event.event.data.scalar
      let value =
        scalar.value.map {
          String(decoding: UnsafeBufferPointer(start: $0, count: scalar.length), as: UTF8.self)
        } ?? ""
      let node = YAMLNode.scalar(value, plain: scalar.style == YAML_PLAIN_SCALAR_STYLE, event.mark)
      register(Event.string(scalar.anchor), node)
      return node
    case YAML_SEQUENCE_START_EVENT:
      var elements: [YAMLNode] = []
      var next = try parse()
      while next.type != YAML_SEQUENCE_END_EVENT {
        elements.append(try node(from: next, depth: depth + 1))
        next = try parse()
      }
      let node = YAMLNode.sequence(elements, event.mark)
      register(Event.string(event.event.data.sequence_start.anchor), node)
      return node
    case YAML_MAPPING_START_EVENT:
      var pairs: [(key: YAMLNode, value: YAMLNode)] = []
      var next = try parse()
      while next.type != YAML_MAPPING_END_EVENT {
        let key = try node(from: next, depth: depth + 1)
        let value = try node(from: try parse(), depth: depth + 1)
        pairs.append((key, value))
        next = try parse()
      }
      try checkDuplicates(pairs)
      let node = YAMLNode.mapping(pairs, event.mark)
      register(Event.string(event.event.data.mapping_start.anchor), node)
      return node
    default:
      // libyaml gives a node's events only here.
      throw .syntax(problem: "did not find expected node content", event.mark)
    }
  }

  func register(_ anchor: String?, _ node: YAMLNode) {
    if let anchor { anchors[anchor] = node }
  }

  /// A key given twice in one mapping (the first such key in sorted order, as Yams named it).
  func checkDuplicates(_ pairs: [(key: YAMLNode, value: YAMLNode)]) throws(YAMLError) {
    var first: [String: YAMLMark] = [:]
    var duplicates: [String: YAMLMark] = [:]
    for (key, _) in pairs {
      guard case .scalar(let name, _, let mark) = key else { continue }
      if first[name] == nil {
        first[name] = mark
      } else if duplicates[name] == nil {
        duplicates[name] = mark
      }
    }
    guard let name = duplicates.keys.min(), let second = duplicates[name], let mark = first[name]
    else { return }
    throw .duplicateKey(name, first: mark, second: second)
  }
}
