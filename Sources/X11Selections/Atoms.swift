internal import CX11

/// The atoms the selection and drag protocols use, interned in one round trip.
///
/// ICCCM: https://www.x.org/releases/X11R7.6/doc/xorg-docs/specs/ICCCM/icccm.html §2
/// XDND: https://freedesktop.org/wiki/Specifications/XDND/
struct Atoms {
  static let names = [
    "CLIPBOARD", "TARGETS", "MULTIPLE", "TIMESTAMP", "ATOM_PAIR", "INCR", "DELETE", "NULL",
    "UTF8_STRING", "TEXT", "COMPOUND_TEXT", "CLIPBOARD_MANAGER", "SAVE_TARGETS", "MANAGER",
    "INSERT_SELECTION", "INSERT_PROPERTY", "FERRY_TIMESTAMP", "FERRY_MULTIPLE",
    "XdndSelection", "XdndAware", "XdndProxy", "XdndEnter", "XdndPosition", "XdndStatus",
    "XdndLeave", "XdndDrop", "XdndFinished", "XdndTypeList", "XdndActionCopy", "XdndActionMove",
    "XdndActionLink", "XdndActionAsk", "XdndActionPrivate", "text/uri-list",
    "text/plain;charset=utf-8", "text/plain",
  ]

  let clipboard, targets, multiple, timestamp, atomPair, incr, delete, null: XAtom
  let utf8String, text, compoundText, clipboardManager, saveTargets, manager: XAtom
  let insertSelection, insertProperty, ferryTimestamp, ferryMultiple: XAtom
  let xdndSelection, xdndAware, xdndProxy, xdndEnter, xdndPosition, xdndStatus: XAtom
  let xdndLeave, xdndDrop, xdndFinished, xdndTypeList, xdndActionCopy, xdndActionMove: XAtom
  let xdndActionLink, xdndActionAsk, xdndActionPrivate: XAtom
  let uriList, utf8MIMEText, plainMIMEText: XAtom

  init(_ atoms: [XAtom]) {
    precondition(atoms.count == Self.names.count)
    var iterator = atoms.makeIterator()
    func next() -> XAtom { iterator.next()! }
    (clipboard, targets, multiple, timestamp, atomPair, incr, delete, null) =
      (next(), next(), next(), next(), next(), next(), next(), next())
    (utf8String, text, compoundText, clipboardManager, saveTargets, manager) =
      (next(), next(), next(), next(), next(), next())
    (insertSelection, insertProperty, ferryTimestamp, ferryMultiple) = (next(), next(), next(), next())
    (xdndSelection, xdndAware, xdndProxy, xdndEnter, xdndPosition, xdndStatus) =
      (next(), next(), next(), next(), next(), next())
    (xdndLeave, xdndDrop, xdndFinished, xdndTypeList, xdndActionCopy, xdndActionMove) =
      (next(), next(), next(), next(), next(), next())
    (xdndActionLink, xdndActionAsk, xdndActionPrivate) = (next(), next(), next())
    (uriList, utf8MIMEText, plainMIMEText) = (next(), next(), next())
  }
}
