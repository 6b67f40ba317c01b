import Testing

@testable import X11Selections

extension DragAndDropTests {
  /// The XDND 5 client-message layouts, both ways, without a server.
  @Suite struct XdndMessageTests {
    static let vocabulary = XdndVocabulary(
      enter: XAtom(rawValue: 301), position: XAtom(rawValue: 302), status: XAtom(rawValue: 303),
      leave: XAtom(rawValue: 304), drop: XAtom(rawValue: 305), finished: XAtom(rawValue: 306),
      copy: XAtom(rawValue: 311), move: XAtom(rawValue: 312), link: XAtom(rawValue: 313),
      ask: XAtom(rawValue: 314), privateAction: XAtom(rawValue: 315))
    static let source = XWindow(rawValue: 0x60_000f)
    static let target = XWindow(rawValue: 0x40_0003)
    static let uriList = XAtom(rawValue: 400)
    static let utf8 = XAtom(rawValue: 401)
    static let string = XAtom(rawValue: 31)
    static let time = XTimestamp(rawValue: 292_607)

    static let messages: [XdndMessage] = [
      .enter(source: source, version: 5, moreThanThreeTypes: false, types: [uriList, utf8]),
      .enter(source: source, version: 5, moreThanThreeTypes: true, types: []),
      .enter(
        source: source, version: 3, moreThanThreeTypes: false, types: [uriList, utf8, string]),
      .position(source: source, rootX: 480, rootY: 90, time: time, action: .copy),
      .position(source: source, rootX: -5, rootY: -1200, time: time, action: .move),
      .position(
        source: source, rootX: 32767, rootY: -32768, time: XTimestamp(rawValue: 0xffff_fff0),
        action: .link),
      .position(source: source, rootX: 0, rootY: 0, time: time, action: nil),
      .status(
        target: target, accept: true, wantsPositionsInside: false,
        rectangle: XdndRectangle(x: 400, y: 0, width: 200, height: 200), action: .copy),
      .status(
        target: target, accept: true, wantsPositionsInside: true, rectangle: .empty,
        action: .private),
      .status(
        target: target, accept: false, wantsPositionsInside: false, rectangle: .empty, action: nil),
      .status(
        target: target, accept: true, wantsPositionsInside: false,
        rectangle: XdndRectangle(x: -100, y: -20, width: 65535, height: 1), action: .ask),
      .leave(source: source),
      .drop(source: source, time: time),
      .drop(source: source, time: XTimestamp(rawValue: 0x8000_0001)),
      .finished(target: target, success: true, action: .copy),
      .finished(target: target, success: true, action: .move),
      .finished(target: target, success: false, action: nil),
    ]

    @Test(arguments: messages)
    func everyMessageSurvivesEncodingAndDecoding(_ message: XdndMessage) {
      let (type, data) = message.encoded(Self.vocabulary)
      #expect(data.count == 5)
      #expect(XdndMessage(type: type, data: data, vocabulary: Self.vocabulary) == message)
    }

    /// Xlib sign-extends the 32-bit values into C longs: decoding must read the low 32 bits.
    @Test(arguments: messages)
    func decodingIgnoresSignExtension(_ message: XdndMessage) {
      let (type, data) = message.encoded(Self.vocabulary)
      let extended = data.map { Int(Int32(truncatingIfNeeded: $0)) }
      let unsigned = data.map { Int(UInt32(truncatingIfNeeded: $0)) }
      #expect(XdndMessage(type: type, data: extended, vocabulary: Self.vocabulary) == message)
      #expect(XdndMessage(type: type, data: unsigned, vocabulary: Self.vocabulary) == message)
    }

    @Test func enterPutsTheVersionInTheTopByteAndTheListBitInBitZero() {
      let (type, data) = XdndMessage.enter(
        source: Self.source, version: 5, moreThanThreeTypes: true, types: [Self.uriList]
      )
      .encoded(Self.vocabulary)
      #expect(type == Self.vocabulary.enter)
      #expect(data == [0x60_000f, 0x0500_0001, 400, 0, 0])
    }

    /// GTK with more than three types: the bit set, the inline slots all None (§4.2 capture).
    @Test func gtkEnterWithEmptyInlineSlotsDecodesToNoInlineTypes() {
      let decoded = XdndMessage(
        type: Self.vocabulary.enter, data: [0x60_000f, 0x0500_0001, 0, 0, 0],
        vocabulary: Self.vocabulary)
      #expect(
        decoded == .enter(source: Self.source, version: 5, moreThanThreeTypes: true, types: []))
    }

    @Test(arguments: [
      (x: 480, y: 90, packed: 0x01e0_005a),
      (x: 0, y: 0, packed: 0),
      (x: -1, y: 0, packed: Int(Int32(bitPattern: 0xffff_0000))),
      (x: 0, y: -1, packed: 0x0000_ffff),
      (x: -2, y: 5, packed: Int(Int32(bitPattern: 0xfffe_0005))),
      (x: 1279, y: 1023, packed: 0x04ff_03ff),
    ])
    func rootCoordinatesAreTwoSignedHalves(x: Int, y: Int, packed: Int) {
      #expect(XdndMessage.pack(x, y) == packed)
      let (ux, uy) = XdndMessage.unpack(UInt32(truncatingIfNeeded: packed))
      #expect(ux == x)
      #expect(uy == y)
    }

    @Test func positionLayout() {
      let (_, data) = XdndMessage.position(
        source: Self.source, rootX: 500, rootY: 100, time: Self.time, action: .copy
      )
      .encoded(Self.vocabulary)
      #expect(data == [0x60_000f, 0, 500 << 16 | 100, 292_607, 311])
    }

    @Test func statusLayoutCarriesRectangleAndAction() {
      let (_, data) = XdndMessage.status(
        target: Self.target, accept: true, wantsPositionsInside: true,
        rectangle: XdndRectangle(x: 400, y: 10, width: 200, height: 150), action: .copy
      ).encoded(Self.vocabulary)
      #expect(data == [0x40_0003, 3, 400 << 16 | 10, 200 << 16 | 150, 311])
    }

    @Test func aRejectingStatusNamesNoAction() {
      let (_, data) = XdndMessage.status(
        target: Self.target, accept: false, wantsPositionsInside: false, rectangle: .empty,
        action: .copy
      )
      .encoded(Self.vocabulary)
      #expect(data[1] == 0)
      #expect(data[4] == 0, "None when bit 0 is clear")
    }

    @Test func finishedLayoutIsVersionFive() {
      #expect(
        XdndMessage.finished(target: Self.target, success: true, action: .copy).encoded(
          Self.vocabulary
        ).data == [0x40_0003, 1, 311, 0, 0])
      #expect(
        XdndMessage.finished(target: Self.target, success: false, action: .copy).encoded(
          Self.vocabulary
        ).data == [0x40_0003, 0, 0, 0, 0])
    }

    @Test func otherMessageTypesAreNotXdnd() {
      #expect(
        XdndMessage(type: XAtom(rawValue: 999), data: [1, 2, 3, 4, 5], vocabulary: Self.vocabulary)
          == nil)
    }

    @Test(arguments: DragAction.allCases)
    func actionsMapToTheirAtomsAndBack(_ action: DragAction) {
      let atom = Self.vocabulary.atom(for: action)
      #expect(atom != .none)
      #expect(Self.vocabulary.action(for: atom) == action)
    }

    @Test func unknownActionAtomsDecodeToNoAction() {
      #expect(Self.vocabulary.action(for: XAtom(rawValue: 12345)) == nil)
      #expect(Self.vocabulary.action(for: .none) == nil)
    }
  }
}
