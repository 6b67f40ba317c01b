import Foundation
import Pasteboard
import SelectionBackendCore
import Testing
import UniformTypeIdentifiers

@testable import X11Selections

/// Mutter's bridge between the Wayland and X selections, as lists: the lists below are what
/// mutter 43.8 answered under nested Mutter on this machine (`xclip -t TARGETS -o` while wl-copy
/// and a GTK 4 program owned the clipboard); the interop tests run the real compositor.
@Suite struct MutterSelectionBridgeTests {
  /// wl-copy offers `text/plain`, `text/plain;charset=utf-8`, `TEXT`, `STRING`, `UTF8_STRING`;
  /// Mutter's window lists them reversed, then `TARGETS`, `TIMESTAMP`.
  @Test func wlCopysOrderIsTurnedBack() {
    let listed = [
      "UTF8_STRING", "STRING", "TEXT", "text/plain;charset=utf-8", "text/plain", "TARGETS",
      "TIMESTAMP",
    ]
    #expect(
      MutterSelectionBridge.ownerOrder(listed) == [
        "text/plain", "text/plain;charset=utf-8", "TEXT", "STRING", "UTF8_STRING", "TARGETS",
        "TIMESTAMP",
      ])
    #expect(!MutterSelectionBridge.isKeptCopy(listed))
  }

  /// A GTK 4 copy of HTML then text: Mutter lists the text first and appends `UTF8_STRING`,
  /// its alias for X readers.
  @Test func aGTK4RichCopysOrderIsTurnedBackAndMuttersAliasStaysLast() {
    let listed = ["text/plain;charset=utf-8", "text/html", "UTF8_STRING", "TARGETS", "TIMESTAMP"]
    #expect(
      MutterSelectionBridge.ownerOrder(listed) == [
        "text/html", "text/plain;charset=utf-8", "UTF8_STRING", "TARGETS", "TIMESTAMP",
      ])
    let offer = OwnerOffer(
      selection: .clipboard, advertised: MutterSelectionBridge.ownerOrder(listed))
    #expect(offer.targets.map(\.type) == [.html, .utf8PlainText])
  }

  @Test(arguments: [
    (["text/plain;charset=utf-8", "UTF8_STRING", "TARGETS", "TIMESTAMP"], true),
    (["text/plain", "STRING", "TARGETS", "TIMESTAMP"], true),
    (["image/png", "TARGETS", "TIMESTAMP"], true),
    (["text/html", "TARGETS", "TIMESTAMP"], false),  // the manager keeps text or images only
    // A program's own UTF8_STRING beside its text: Mutter appends no alias then.
    (["UTF8_STRING", "text/plain;charset=utf-8", "TARGETS", "TIMESTAMP"], false),
    (["text/plain;charset=utf-8", "text/html", "UTF8_STRING", "TARGETS", "TIMESTAMP"], false),
    ([String](), false),
  ])
  func theClipboardManagersRestoreIsOneTextOrImageType(listed: [String], isKept: Bool) {
    #expect(MutterSelectionBridge.isKeptCopy(listed) == isKept)
  }

  /// What Ferry answers Mutter with: MIME types only, reversed, so that the list Mutter
  /// prepends them into is in Ferry's order.
  @Test func muttersTargetsAreMIMETypesReversed() async {
    let item = PasteboardItem(representations: [
      .data(Data("<b>x</b>".utf8), type: .html), .data(Data("x".utf8), type: .utf8PlainText),
    ])
    let names = await TargetTable.make(for: item).entries.map(\.name)
    let answered = MutterSelectionBridge.targetsForMutter(
      names + ["TARGETS", "TIMESTAMP", "MULTIPLE", "SAVE_TARGETS"])
    let prepended = answered.reduce(into: [String]()) { list, name in list.insert(name, at: 0) }
    #expect(prepended.first == "text/html", "\(prepended)")
    #expect(prepended.dropFirst().first == "text/plain;charset=utf-8", "\(prepended)")
    for xOnly in ["UTF8_STRING", "TEXT", "COMPOUND_TEXT", "STRING", "TARGETS", "MULTIPLE"] {
      #expect(!prepended.contains(xOnly), "\(xOnly) in \(prepended)")
    }
    #expect(!prepended.contains(where: FerryMarker.isMarker))
  }

  @Test func onlyMuttersSelectionWindowHasItsShape() {
    let mutters = X11Connection.WindowShape(
      x: -1, y: -1, width: 1, height: 1, isInputOnly: true, isOverrideRedirect: true)
    #expect(MutterSelectionBridge.isSelectionWindow(mutters))
    var ferrys = mutters
    ferrys.x = -10
    ferrys.y = -10
    ferrys.isInputOnly = false
    ferrys.isOverrideRedirect = false
    #expect(!MutterSelectionBridge.isSelectionWindow(ferrys))
    #expect(MutterSelectionBridge.isMutter(windowManager: "GNOME Shell"))
    #expect(!MutterSelectionBridge.isMutter(windowManager: "KWin"))
  }
}
