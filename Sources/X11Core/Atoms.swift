/// The atoms the selection and drag protocols use, interned when the connection opens in one
/// round trip (``X11Connection/atoms``).
///
/// ```swift
/// let targets = connection.atoms[.targets]
/// ```
///
/// ICCCM: https://www.x.org/releases/X11R7.6/doc/xorg-docs/specs/ICCCM/icccm.html §2
/// XDND: https://freedesktop.org/wiki/Specifications/XDND/
public struct Atoms: Sendable {
  /// One atom of the table; the raw value is the atom's name. The table is this list: adding
  /// a case interns one more atom.
  public enum Name: String, CaseIterable, Sendable {
    /// `CLIPBOARD`: the selection an explicit copy owns.
    case clipboard = "CLIPBOARD"
    /// `TARGETS`: the target that lists an owner's targets.
    case targets = "TARGETS"
    /// `MULTIPLE`: several conversions in one request.
    case multiple = "MULTIPLE"
    /// `TIMESTAMP`: the time the owner took the selection.
    case timestamp = "TIMESTAMP"
    /// `ATOM_PAIR`: the type of a `MULTIPLE` request's list.
    case atomPair = "ATOM_PAIR"
    /// `INCR`: the type announcing a transfer in chunks.
    case incr = "INCR"
    /// `DELETE`: the target asking the owner to delete the selection.
    case delete = "DELETE"
    /// `NULL`: the type of an empty reply.
    case null = "NULL"
    /// `UTF8_STRING`: UTF-8 text.
    case utf8String = "UTF8_STRING"
    /// `TEXT`: text in an encoding of the owner's choice.
    case text = "TEXT"
    /// `COMPOUND_TEXT`: ISO 2022 text.
    case compoundText = "COMPOUND_TEXT"
    /// `CLIPBOARD_MANAGER`: the selection a clipboard manager owns.
    case clipboardManager = "CLIPBOARD_MANAGER"
    /// `SAVE_TARGETS`: asks the clipboard manager to keep the clipboard.
    case saveTargets = "SAVE_TARGETS"
    /// `MANAGER`: the message announcing a new manager selection owner.
    case manager = "MANAGER"
    /// `INSERT_SELECTION`: the side-effect target that inserts a selection.
    case insertSelection = "INSERT_SELECTION"
    /// `INSERT_PROPERTY`: the side-effect target that inserts a property.
    case insertProperty = "INSERT_PROPERTY"
    /// `FERRY_TIMESTAMP`: the property whose zero-length append asks the server's time.
    case ferryTimestamp = "FERRY_TIMESTAMP"
    /// `FERRY_MULTIPLE`: the property of Ferry's own `MULTIPLE` requests.
    case ferryMultiple = "FERRY_MULTIPLE"
    /// `XdndSelection`: the selection of the drag in progress.
    case xdndSelection = "XdndSelection"
    /// `XdndAware`: the property of a window that takes drops.
    case xdndAware = "XdndAware"
    /// `XdndProxy`: the property sending a window's drops elsewhere.
    case xdndProxy = "XdndProxy"
    /// `XdndEnter`: a drag entered the target.
    case xdndEnter = "XdndEnter"
    /// `XdndPosition`: the pointer moved over the target.
    case xdndPosition = "XdndPosition"
    /// `XdndStatus`: the target's answer to a position.
    case xdndStatus = "XdndStatus"
    /// `XdndLeave`: the drag left the target.
    case xdndLeave = "XdndLeave"
    /// `XdndDrop`: the drag was dropped on the target.
    case xdndDrop = "XdndDrop"
    /// `XdndFinished`: the target is done with the drop.
    case xdndFinished = "XdndFinished"
    /// `XdndTypeList`: the property listing a drag's types beyond three.
    case xdndTypeList = "XdndTypeList"
    /// `XdndActionCopy`: the drop copies.
    case xdndActionCopy = "XdndActionCopy"
    /// `XdndActionMove`: the drop moves.
    case xdndActionMove = "XdndActionMove"
    /// `XdndActionLink`: the drop links.
    case xdndActionLink = "XdndActionLink"
    /// `XdndActionAsk`: the target asks what to do.
    case xdndActionAsk = "XdndActionAsk"
    /// `XdndActionPrivate`: the target does something of its own.
    case xdndActionPrivate = "XdndActionPrivate"
    /// `text/uri-list`: a list of URIs, one a line.
    case uriList = "text/uri-list"
    /// `text/plain;charset=utf-8`: UTF-8 text, by MIME type.
    case utf8MIMEText = "text/plain;charset=utf-8"
    /// `text/plain`: text, by MIME type.
    case plainMIMEText = "text/plain"
  }

  /// The interned atoms, by name.
  private let atoms: [Name: XAtom]

  /// The table from the atoms interned for ``Name/allCases``, in that order.
  init(_ interned: [XAtom]) {
    precondition(interned.count == Name.allCases.count)
    atoms = Dictionary(uniqueKeysWithValues: zip(Name.allCases, interned))
  }

  /// The atom named `name`.
  public subscript(_ name: Name) -> XAtom { atoms[name]! }
}
