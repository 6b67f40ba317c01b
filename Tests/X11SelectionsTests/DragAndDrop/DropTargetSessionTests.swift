import Testing

@testable import X11Selections

extension DragAndDropTests {
  /// The target's side of XDND as a value: which answers go out for each message.
  @Suite struct DropTargetSessionTests {
    static let source = XWindow(rawValue: 0x60_000f)
    static let other = XWindow(rawValue: 0x70_0001)
    static let targets = XAtom(rawValue: 10)
    static let uriList = XAtom(rawValue: 400)
    static let utf8 = XAtom(rawValue: 401)
    static let mimeText = XAtom(rawValue: 402)
    static let string = XAtom(rawValue: 31)
    static let time = XTimestamp(rawValue: 5000)

    private func entered(version: Int = 5, types: [XAtom] = [uriList, utf8]) -> DropTargetSession {
      var target = DropTargetSession(ignoredTypes: [Self.targets])
      _ = target.enter(
        source: Self.source, version: version, moreThanThreeTypes: false, types: types)
      return target
    }

    @Test func enterWithInlineTypesNeedsNoTypeList() {
      var target = DropTargetSession(ignoredTypes: [])
      #expect(
        target.enter(
          source: Self.source, version: 5, moreThanThreeTypes: false, types: [Self.uriList]) == [])
      #expect(target.wantedTypes == [Self.uriList])
    }

    /// GTK leaves the inline slots empty when it sets the bit; the list is read whenever it is set.
    @Test(arguments: [[], [uriList], [uriList, utf8, mimeText]])
    func theListBitAlwaysReadsXdndTypeList(inline: [XAtom]) {
      var target = DropTargetSession(ignoredTypes: [])
      let actions = target.enter(
        source: Self.source, version: 5, moreThanThreeTypes: true, types: inline)
      #expect(actions == [.readTypeList(from: Self.source)])
      target.typeListRead([Self.uriList, Self.mimeText, Self.utf8, Self.string], from: Self.source)
      #expect(
        target.wantedTypes == [Self.uriList, Self.mimeText, Self.utf8, Self.string],
        "the source's order")
    }

    @Test func aTypeListFromAnotherWindowIsIgnored() {
      var target = DropTargetSession(ignoredTypes: [])
      _ = target.enter(source: Self.source, version: 5, moreThanThreeTypes: true, types: [])
      target.typeListRead([Self.uriList], from: Self.other)
      #expect(target.wantedTypes == [])
    }

    @Test(arguments: [0, 1, 2, 6, 7])
    func unsupportedVersionsAreIgnored(version: Int) {
      var target = DropTargetSession(ignoredTypes: [])
      #expect(
        target.enter(source: Self.source, version: version, moreThanThreeTypes: true, types: [])
          == [])
      #expect(target.state == .idle)
      #expect(
        target.position(source: Self.source, inside: true, requested: .copy) == [
          .sendStatus(to: Self.source, accept: false, action: nil)
        ])
    }

    @Test(arguments: [3, 4, 5])
    func versionsThreeToFiveAreSpoken(version: Int) {
      var target = entered(version: version)
      #expect(
        target.position(source: Self.source, inside: true, requested: .copy) == [
          .sendStatus(to: Self.source, accept: true, action: .copy)
        ])
    }

    /// Exactly one status per position, whatever the state and whoever asks.
    @Test(arguments: [
      (
        inside: true, requested: DragAction?.some(.copy), accept: true,
        action: DragAction?.some(.copy)
      ),
      (inside: true, requested: .move, accept: true, action: .copy),
      (inside: true, requested: .link, accept: true, action: .link),
      (inside: true, requested: .ask, accept: true, action: .copy),
      (inside: true, requested: .private, accept: true, action: .copy),
      (inside: true, requested: nil, accept: true, action: .copy),
      (inside: false, requested: .copy, accept: false, action: nil),
    ])
    func positionsAreAnsweredWithOneStatus(
      inside: Bool, requested: DragAction?, accept: Bool, action: DragAction?
    ) {
      var target = entered()
      let actions = target.position(source: Self.source, inside: inside, requested: requested)
      #expect(actions == [.sendStatus(to: Self.source, accept: accept, action: action)])
    }

    @Test func positionsWithoutAnEnterAreRejected() {
      var target = DropTargetSession(ignoredTypes: [])
      #expect(
        target.position(source: Self.source, inside: true, requested: .copy) == [
          .sendStatus(to: Self.source, accept: false, action: nil)
        ])
      var busy = entered()
      #expect(
        busy.position(source: Self.other, inside: true, requested: .copy) == [
          .sendStatus(to: Self.other, accept: false, action: nil)
        ])
    }

    @Test func anOfferOfOnlyMetaTargetsIsRejected() {
      var target = entered(types: [Self.targets])
      #expect(
        target.position(source: Self.source, inside: true, requested: .copy) == [
          .sendStatus(to: Self.source, accept: false, action: nil)
        ])
    }

    @Test func anAcceptedDropConvertsTheWantedTypesInOrderThenFinishes() {
      var target = entered(types: [Self.targets, Self.uriList, Self.utf8, Self.uriList, .none])
      _ = target.position(source: Self.source, inside: true, requested: .copy)
      #expect(
        target.drop(source: Self.source, time: Self.time) == [
          .convert(
            source: Self.source, types: [Self.uriList, Self.utf8], time: Self.time, action: .copy)
        ])
      #expect(
        target.conversionsFinished(success: true) == [
          .sendFinished(to: Self.source, success: true, action: .copy)
        ])
      #expect(target.state == .idle)
    }

    @Test func aDropThatReadNothingFinishesWithFailure() {
      var target = entered()
      _ = target.position(source: Self.source, inside: true, requested: .link)
      _ = target.drop(source: Self.source, time: Self.time)
      #expect(
        target.conversionsFinished(success: false) == [
          .sendFinished(to: Self.source, success: false, action: nil)
        ])
    }

    /// Always a finish after a drop, even a rejected or unexpected one.
    @Test func aRejectedDropStillGetsItsFinish() {
      var target = entered()
      _ = target.position(source: Self.source, inside: false, requested: .copy)
      #expect(
        target.drop(source: Self.source, time: Self.time) == [
          .sendFinished(to: Self.source, success: false, action: nil)
        ])
      #expect(target.state == .idle)
      var fresh = DropTargetSession(ignoredTypes: [])
      #expect(
        fresh.drop(source: Self.other, time: Self.time) == [
          .sendFinished(to: Self.other, success: false, action: nil)
        ])
    }

    /// Never a finish outside a drop: not for a rejected position, not for a leave.
    @Test func noFinishWithoutADrop() {
      var target = entered()
      var actions = target.position(source: Self.source, inside: false, requested: .copy)
      actions += target.position(source: Self.source, inside: true, requested: .copy)
      actions += target.leave(source: Self.source)
      actions += target.conversionsFinished(success: true)
      #expect(!actions.contains { if case .sendFinished = $0 { true } else { false } })
      #expect(target.state == .idle)
    }

    @Test func theLastStatusDecidesTheDrop() {
      var target = entered()
      _ = target.position(source: Self.source, inside: true, requested: .copy)
      _ = target.position(source: Self.source, inside: false, requested: .copy)
      #expect(
        target.drop(source: Self.source, time: Self.time) == [
          .sendFinished(to: Self.source, success: false, action: nil)
        ])
    }

    @Test func aLeaveFromAnotherSourceKeepsTheOffer() {
      var target = entered()
      _ = target.leave(source: Self.other)
      #expect(target.wantedTypes == [Self.uriList, Self.utf8])
    }

    @Test func whileConvertingNewcomersAreRejectedAndTheFinishGoesToTheDropper() {
      var target = entered()
      _ = target.position(source: Self.source, inside: true, requested: .copy)
      _ = target.drop(source: Self.source, time: Self.time)
      #expect(
        target.enter(source: Self.other, version: 5, moreThanThreeTypes: false, types: [Self.utf8])
          == [])
      #expect(
        target.position(source: Self.other, inside: true, requested: .copy) == [
          .sendStatus(to: Self.other, accept: false, action: nil)
        ])
      #expect(
        target.conversionsFinished(success: true) == [
          .sendFinished(to: Self.source, success: true, action: .copy)
        ])
    }
  }
}
