/// The atoms that name XDND messages and actions, looked up once per connection.
///
/// A value so that the message codec and the state machines can be tested with any numbers.
struct XdndVocabulary: Sendable, Equatable {
  var enter, position, status, leave, drop, finished: XAtom
  var copy, move, link, ask, privateAction: XAtom

  init(
    enter: XAtom, position: XAtom, status: XAtom, leave: XAtom, drop: XAtom, finished: XAtom,
    copy: XAtom, move: XAtom, link: XAtom, ask: XAtom, privateAction: XAtom
  ) {
    (self.enter, self.position, self.status, self.leave, self.drop, self.finished) =
      (enter, position, status, leave, drop, finished)
    (self.copy, self.move, self.link, self.ask, self.privateAction) = (
      copy, move, link, ask, privateAction
    )
  }

  init(_ atoms: Atoms) {
    self.init(
      enter: atoms[.xdndEnter], position: atoms[.xdndPosition], status: atoms[.xdndStatus],
      leave: atoms[.xdndLeave], drop: atoms[.xdndDrop], finished: atoms[.xdndFinished],
      copy: atoms[.xdndActionCopy], move: atoms[.xdndActionMove], link: atoms[.xdndActionLink],
      ask: atoms[.xdndActionAsk], privateAction: atoms[.xdndActionPrivate])
  }

  /// The atom of `action`; `None` for no action.
  func atom(for action: DragAction?) -> XAtom {
    switch action {
    case .copy: copy
    case .move: move
    case .link: link
    case .ask: ask
    case .private: privateAction
    case nil: .none
    }
  }

  /// The action an atom names; `nil` for `None` and for atoms that name no action.
  func action(for atom: XAtom) -> DragAction? {
    switch atom {
    case .none: nil
    case copy: .copy
    case move: .move
    case link: .link
    case ask: .ask
    case privateAction: .private
    default: nil
    }
  }
}

/// A rectangle in root coordinates: where the target needs no further `XdndPosition`.
struct XdndRectangle: Sendable, Equatable {
  var x, y, width, height: Int

  /// No rectangle: send a position on every move.
  static let empty = XdndRectangle(x: 0, y: 0, width: 0, height: 0)

  var isEmpty: Bool { width <= 0 || height <= 0 }

  func contains(x px: Int, y py: Int) -> Bool {
    !isEmpty && px >= x && py >= y && px < x + width && py < y + height
  }
}

/// One XDND 5 client message, decoded from (or encoded to) the five longs of a format-32
/// `ClientMessage`.
///
/// | message | l[0] | l[1] | l[2] | l[3] | l[4] |
/// |---|---|---|---|---|---|
/// | `XdndEnter` | source | version << 24, bit 0: more than 3 types | type 1 | type 2 | type 3 |
/// | `XdndPosition` | source | 0 | root x << 16 \| root y (signed) | time | action |
/// | `XdndStatus` | target | bit 0: accept, bit 1: positions inside the rectangle | x << 16 \| y | w << 16 \| h | action |
/// | `XdndLeave` | source | 0 | | | |
/// | `XdndDrop` | source | 0 | time | | |
/// | `XdndFinished` | target | bit 0: success (v5) | action (v5) | | |
///
/// Xlib hands format-32 data over as C longs, sign-extended from 32 bits; everything here
/// reads the low 32 bits only, and root coordinates as two signed 16-bit halves (a pointer
/// left of a screen at a negative offset has a negative x).
///
/// XDND: https://freedesktop.org/wiki/Specifications/XDND/
enum XdndMessage: Sendable, Equatable {
  /// A drag entered the target. `types` are the inline ones (at most three, no `None`);
  /// with `moreThanThreeTypes` the full list is in the source's `XdndTypeList`.
  case enter(source: XWindow, version: Int, moreThanThreeTypes: Bool, types: [XAtom])
  /// The pointer is at a root position; the source asks for `action`.
  case position(source: XWindow, rootX: Int, rootY: Int, time: XTimestamp, action: DragAction?)
  /// The target's answer to one position.
  case status(
    target: XWindow, accept: Bool, wantsPositionsInside: Bool, rectangle: XdndRectangle,
    action: DragAction?)
  /// The drag left the target, or was cancelled.
  case leave(source: XWindow)
  /// The button was released over the target: convert `XdndSelection` at `time`.
  case drop(source: XWindow, time: XTimestamp)
  /// The target is done with the drop.
  case finished(target: XWindow, success: Bool, action: DragAction?)

  /// Decodes a client message; `nil` when `type` is not an XDND message.
  init?(type: XAtom, data: [Int], vocabulary: XdndVocabulary) {
    let l = (0..<5).map { $0 < data.count ? UInt32(truncatingIfNeeded: data[$0]) : 0 }
    let window = XWindow(rawValue: UInt(l[0]))
    switch type {
    case vocabulary.enter:
      let types = l[2...4].map { XAtom(rawValue: UInt($0)) }.filter { $0 != .none }
      self = .enter(
        source: window, version: Int(l[1] >> 24), moreThanThreeTypes: l[1] & 1 != 0, types: types)
    case vocabulary.position:
      let (x, y) = Self.unpack(l[2])
      self = .position(
        source: window, rootX: x, rootY: y, time: XTimestamp(rawValue: UInt(l[3])),
        action: vocabulary.action(for: XAtom(rawValue: UInt(l[4]))))
    case vocabulary.status:
      let (x, y) = Self.unpack(l[2])
      let rectangle = XdndRectangle(x: x, y: y, width: Int(l[3] >> 16), height: Int(l[3] & 0xffff))
      self = .status(
        target: window, accept: l[1] & 1 != 0, wantsPositionsInside: l[1] & 2 != 0,
        rectangle: rectangle,
        action: vocabulary.action(for: XAtom(rawValue: UInt(l[4]))))
    case vocabulary.leave:
      self = .leave(source: window)
    case vocabulary.drop:
      self = .drop(source: window, time: XTimestamp(rawValue: UInt(l[2])))
    case vocabulary.finished:
      self = .finished(
        target: window, success: l[1] & 1 != 0,
        action: vocabulary.action(for: XAtom(rawValue: UInt(l[2]))))
    default:
      return nil
    }
  }

  /// The message type and the five longs.
  func encoded(_ vocabulary: XdndVocabulary) -> (type: XAtom, data: [Int]) {
    func long(_ value: UInt) -> Int { Int(Int32(bitPattern: UInt32(truncatingIfNeeded: value))) }
    switch self {
    case .enter(let source, let version, let more, let types):
      let inline = (types.prefix(3) + Array(repeating: XAtom.none, count: 3)).prefix(3).map {
        long($0.rawValue)
      }
      return (
        vocabulary.enter,
        [long(source.rawValue), long(UInt(version) << 24 | (more ? 1 : 0))] + inline
      )
    case .position(let source, let x, let y, let time, let action):
      return (
        vocabulary.position,
        [
          long(source.rawValue), 0, Self.pack(x, y), long(time.rawValue),
          long(vocabulary.atom(for: action).rawValue),
        ]
      )
    case .status(let target, let accept, let inside, let rectangle, let action):
      let size =
        UInt(UInt16(clamping: rectangle.width)) << 16 | UInt(UInt16(clamping: rectangle.height))
      return (
        vocabulary.status,
        [
          long(target.rawValue), (accept ? 1 : 0) | (inside ? 2 : 0),
          Self.pack(rectangle.x, rectangle.y),
          long(size), long(vocabulary.atom(for: accept ? action : nil).rawValue),
        ]
      )
    case .leave(let source):
      return (vocabulary.leave, [long(source.rawValue), 0, 0, 0, 0])
    case .drop(let source, let time):
      return (vocabulary.drop, [long(source.rawValue), 0, long(time.rawValue), 0, 0])
    case .finished(let target, let success, let action):
      return (
        vocabulary.finished,
        [
          long(target.rawValue), success ? 1 : 0,
          long(vocabulary.atom(for: success ? action : nil).rawValue), 0, 0,
        ]
      )
    }
  }

  /// `x << 16 | y`, each a signed 16-bit value, as a long.
  static func pack(_ x: Int, _ y: Int) -> Int {
    let bits = UInt32(UInt16(truncatingIfNeeded: x)) << 16 | UInt32(UInt16(truncatingIfNeeded: y))
    return Int(Int32(bitPattern: bits))
  }

  /// The two signed 16-bit halves of a packed point.
  static func unpack(_ value: UInt32) -> (x: Int, y: Int) {
    (Int(Int16(truncatingIfNeeded: value >> 16)), Int(Int16(truncatingIfNeeded: value & 0xffff)))
  }
}
