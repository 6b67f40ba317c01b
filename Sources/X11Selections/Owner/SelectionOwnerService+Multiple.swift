import FerrySystem
import FoundationEssentials
import Pasteboard

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension SelectionOwnerService {
  /// `MULTIPLE`: converts each (target, property) pair of the requestor's `ATOM_PAIR` list,
  /// marks failed pairs with `None`, writes the list back, then answers once (ICCCM §2.6.2).
  ///
  /// Members are written in one request each; a member larger than one request fails (INCR
  /// inside MULTIPLE is legal but fragile, and Qt never sends it either).
  func handleMultiple(_ request: X11Event.SelectionRequest, property: XAtom, ownership: Ownership) {
    let connection = session.connection
    guard request.property != .none,
      let list = connection.property(of: request.requestor, property, delete: false),
      list.type == connection.atoms[.atomPair] || list.type == .atom,
      let conversion = MultipleConversion(pairs: list.values.map(XAtom.init(rawValue:)))
    else {
      connection.sendSelectionNotify(
        requestor: request.requestor, selection: request.selection, target: request.target,
        property: .none, time: request.time)
      return
    }
    let names = connection.names(conversion.pairs.map(\.target))
    let item = ownership.item
    let loop = session.loop
    let limit = chunkBytes
    let selection = request.selection
    Task(executorPreference: ProductionExecutor.shared) {
      let table = await TargetTable.make(for: item)
      var results: [(Int, Data, String)?] = []
      for (index, name) in names.enumerated() {
        guard let name, let entry = table.entry(named: name),
          let payload = await entry.payload(of: item), payload.byteCount <= limit,
          let data = try? payload.data()
        else {
          results.append(nil)
          continue
        }
        results.append((index, data, entry.replyType))
      }
      let produced = results
      loop.submit { session in
        let connection = session.connection
        var multiple = conversion
        let checkedFrom = connection.nextRequestSerial
        for (index, result) in produced.enumerated() {
          let pair = multiple.pairs[index]
          guard let (_, data, replyType) = result, pair.property != .none else {
            multiple.complete(index, succeeded: false)
            continue
          }
          data.withUnsafeBytes {
            connection.setProperty(
              of: request.requestor, pair.property, type: connection.atom(replyType), bytes: $0)
          }
          multiple.complete(index, succeeded: true)
        }
        connection.setProperty(
          of: request.requestor, property, type: connection.atoms[.atomPair],
          values: multiple.replyPairs.map(\.rawValue))
        let failed = session.owner.failed(connection.sync(), since: checkedFrom)
        _ = selection
        connection.sendSelectionNotify(
          requestor: request.requestor, selection: request.selection, target: request.target,
          property: failed ? .none : property, time: request.time)
        connection.flush()
      }
    }
  }
}
