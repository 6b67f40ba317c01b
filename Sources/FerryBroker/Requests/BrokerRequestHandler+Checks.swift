import FerryProtocol
import Pasteboard
import UniformTypeIdentifiers

extension BrokerRequestHandler {
  /// The pasteboard a request names, `general` when it names none.
  ///
  /// - Throws: A `badRequest` refusal for a name that is empty, longer than 255 bytes or
  ///   holds a control character.
  static func pasteboardName(_ name: String?) throws(ProtocolFailure) -> Pasteboard.Name {
    let name = name ?? WireProtocol.defaultPasteboard
    guard !name.isEmpty, name.utf8.count <= 255,
      !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
    else {
      throw .refusal(.badRequest, "a pasteboard name is 1 to 255 bytes without control characters")
    }
    return Pasteboard.Name(rawValue: name)
  }

  /// The type a request names: a type identifier (declared, `dyn.`, or any well-formed one,
  /// taken as imported), or a MIME type.
  ///
  /// - Throws: An `unknownType` refusal for anything else.
  static func type(named name: String) throws(ProtocolFailure) -> UTType {
    if name.contains("/") {
      let essence = name.split(separator: ";", maxSplits: 1)[0].trimmingWhitespace()
      let parts = essence.split(separator: "/", omittingEmptySubsequences: false)
      let token = { (part: Substring) in
        !part.isEmpty
          && part.unicodeScalars.allSatisfy {
            $0.isASCII && $0.value > 0x20 && !"()<>@,;:\\\"/[]?=".unicodeScalars.contains($0)
          }
      }
      guard parts.count == 2, token(parts[0]), token(parts[1]), let type = UTType(mimeType: name)
      else {
        throw .refusal(.unknownType, "\"\(name)\" is not a MIME type")
      }
      return type
    }
    if let type = UTType(name) { return type }
    // A well-formed identifier nobody declared yet is a program's own type (a Swift program
    // copying its `Transferable`): accept it as an imported type, which a declaration
    // registered later refines.
    let wellFormed = name.count <= 255 && UTType._isWellFormedIdentifier(name)
    guard wellFormed else {
      throw .refusal(
        .unknownType,
        "unknown type \(name): not a type identifier (reverse-DNS, like com.example.profile) or a MIME type"
      )
    }
    return UTType(importedAs: name)
  }

  /// A pasteboard's state; the types of a concealed item are listed, its bytes never.
  ///
  /// - Parameter changeCount: The change count to report; the pasteboard's own when `nil`.
  func state(of board: Pasteboard, changeCount: Int? = nil) -> PasteboardState {
    let count = changeCount ?? board.changeCount
    let items = board.items
    var seen = Set<UTType>()
    let types = items.flatMap(\.types).filter { seen.insert($0).inserted }
    var options: [ItemOption] = []
    if let first = items.first {
      if first.options.contains(.transient) { options.append(.transient) }
      if first.options.contains(.currentHostOnly) { options.append(.currentHostOnly) }
    }
    return PasteboardState(
      pasteboard: board.name.rawValue, changeCount: count,
      types: types.map(\.identifier),
      storedTypes: items.flatMap(\.storedTypes).map(\.identifier),
      concealed: items.contains { $0.options.contains(.concealed) },
      options: options.isEmpty ? nil : options,
      origin: state.origins.origin(of: board, at: count))
  }
}
