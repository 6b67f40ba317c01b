import FerryClient
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Talking to a running broker, when there is one.
///
/// Every function returns `nil` or `false` when no broker answers on the socket, so the
/// command falls back to the X selection; any other broker failure is the command's failure.
enum BrokerConnector {
  /// How long to wait for the broker's socket to accept: a broker that does not answer within
  /// this is treated as absent.
  static let connectTimeout: Duration = .seconds(2)

  static func connect(timeout: Duration, clientName: String) throws -> BrokerClient? {
    do {
      return try BrokerClient.connect(timeout: timeout, clientName: clientName, pipelining: true)
    } catch let error where error.code == .noBroker {
      return nil
    } catch {
      throw failure(error)
    }
  }

  /// Writes `request` through the broker; `false` when none runs.
  static func copy(_ request: CopyRequest) throws -> Bool {
    guard let client = try connect(timeout: BrokerClient.defaultTimeout, clientName: request.client)
    else { return false }
    defer { client.close() }
    do {
      _ = try client.write(
        request.representations.map { .data($0.data, type: $0.type) }, to: request.pasteboard,
        options: request.concealed ? [.concealed] : [])
      return true
    } catch {
      throw failure(error)
    }
  }

  /// Reads `request` through the broker into `descriptor`; `false` when none runs.
  static func paste(_ request: PasteRequest, to descriptor: Int32) throws -> Bool {
    guard let client = try connect(timeout: request.timeout + .seconds(10), clientName: "pbpaste")
    else { return false }
    defer { client.close() }
    do {
      _ = try client.read(types: request.preferences, from: request.pasteboard, into: descriptor)
      return true
    } catch {
      throw failure(error)
    }
  }

  /// The pasteboard's types through the broker; `nil` when none runs.
  static func types(_ request: PasteRequest) throws -> [String]? {
    guard let client = try connect(timeout: request.timeout + .seconds(10), clientName: "pbpaste")
    else { return nil }
    defer { client.close() }
    do {
      let state = try client.types(of: request.pasteboard)
      if state.types.isEmpty {
        throw CommandFailure(
          "nothing to paste: the \(request.pasteboard) pasteboard is empty",
          status: .nothingAvailable)
      }
      return state.types
    } catch let error as BrokerClientError {
      throw failure(error)
    }
  }

  static func failure(_ error: BrokerClientError) -> CommandFailure {
    CommandFailure(error)
  }
}
