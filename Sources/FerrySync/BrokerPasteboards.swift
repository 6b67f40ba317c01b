import FerryClient
import FerryProtocol

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The machine's broker, over its socket: every call a connection of its own, so a slow read
/// never holds up a write or the watch.
public struct BrokerPasteboards: LocalPasteboards {
  /// The broker's socket.
  public var socket: SocketPath

  /// The broker at `socket`.
  public init(socket: SocketPath) { self.socket = socket }

  private func connect(_ name: String) throws(BrokerClientError) -> BrokerClient {
    try BrokerClient.connect(to: socket, clientName: name)
  }

  public func report(links: [SyncLinkStatus], clock: Int?) throws -> SyncReportResponse {
    let client = try connect("ferry sync")
    defer { client.close() }
    return try client.syncReport(links, process: getpid(), clock: clock)
  }

  public func watch(
    _ pasteboards: [String], handler: @escaping @Sendable (PasteboardState) -> Bool
  ) throws {
    let watcher = try connect("ferry sync")
    var startFailure: BrokerClientError?
    var going = true
    try watcher.watch(
      pasteboards,
      started: {
        // The state now, once every later change is sure to be reported.
        do throws(BrokerClientError) {
          let client = try connect("ferry sync")
          defer { client.close() }
          for name in pasteboards where going { going = handler(try client.types(of: name)) }
        } catch {
          startFailure = error
        }
      },
      handler: { state in
        guard going, startFailure == nil else { return false }
        return handler(state)
      })
    if let startFailure { throw startFailure }
  }

  public func read(_ types: [String], of state: PasteboardState, limit: Int) throws -> LocalRead {
    let client = try connect("ferry sync")
    defer { client.close() }
    var representations: [SyncItem.Representation] = []
    var left = limit
    for type in types {
      let answer: (type: String, data: Data)?
      do {
        answer = try client.read(types: [type], from: state.pasteboard, limit: left)
      } catch {
        let code = error.code
        if code == .empty || code == .notAvailable { return .changed }
        // An owner that could not produce it: the other types still go.
        if code == .providerFailed { continue }
        throw error
      }
      guard let answer else { return .tooLarge(limit + 1) }
      guard answer.type == type else { continue }  // served by a conforming type: not stored
      left -= answer.data.count
      representations.append(SyncItem.Representation(type: type, bytes: answer.data))
    }
    // The same item from the first read to the last: the change count did not move.
    let after = try connect("ferry sync")
    defer { after.close() }
    guard try after.types(of: state.pasteboard).changeCount == state.changeCount else {
      return .changed
    }
    return .item(representations)
  }

  public func write(_ item: SyncItem, from host: String) throws -> Bool {
    let client = try connect("sync:\(host)")
    defer { client.close() }
    let expires = item.expiresIn.map { Double(time(nil)) + $0 }
    return try client.write(
      item.representations.map { .data($0.bytes, type: $0.type) }, to: item.pasteboard,
      origin: item.origin, expires: expires
    ).applied ?? true
  }
}
