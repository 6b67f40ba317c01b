import FerryProtocol
import FerrySystem
import JSONText

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

extension BrokerClient {
  /// Reads the first of `types` the pasteboard serves (conversions included) and writes its
  /// bytes to `descriptor` as they arrive.
  ///
  /// - Parameters:
  ///   - types: Type identifiers or MIME types, preferred first; empty for the first stored
  ///     type of the first item.
  ///   - pasteboard: The pasteboard's name.
  ///   - descriptor: Where the bytes go; not closed.
  /// - Returns: The type served.
  /// - Throws: ``BrokerClientError``: `empty`, `notAvailable`, `unknownType`, `providerFailed`,
  ///   `timeout`, `io` when `descriptor` fails (the connection is closed).
  @discardableResult
  public func read(
    types: [String], from pasteboard: String = WireProtocol.defaultPasteboard,
    into descriptor: Int32
  ) throws(BrokerClientError) -> String {
    // A spooled representation is copied from the broker's file inside the kernel; when that
    // file is gone by the time it is opened (the item was replaced), ask again for the bytes.
    let write = { (bytes: [UInt8]) throws(BrokerClientError) in
      try Self.writeAll(bytes, to: descriptor)
    }
    let answer = try requestRead(types, from: pasteboard, inPlace: true, consume: write)
    guard let file = answer.file, try !copyInPlace(file, to: descriptor) else { return answer.type }
    return try requestRead(types, from: pasteboard, inPlace: nil, consume: write).type
  }

  /// Reads the first of `types` the pasteboard serves into memory.
  ///
  /// - Returns: The type served and its bytes.
  /// - Throws: ``BrokerClientError`` as ``read(types:from:into:)``.
  public func read(
    types: [String], from pasteboard: String = WireProtocol.defaultPasteboard
  ) throws(BrokerClientError) -> (type: String, data: Data) {
    var data = Data()
    let answer = try requestRead(types, from: pasteboard, inPlace: nil) { bytes in
      data.append(contentsOf: bytes)
    }
    return (answer.type, data)
  }

  /// Reads the first of `types` the pasteboard serves into memory, giving up past `limit`
  /// bytes.
  ///
  /// - Returns: The type served and its bytes, or `nil` when they pass `limit` (the
  ///   connection is then closed).
  /// - Throws: ``BrokerClientError`` as ``read(types:from:into:)``.
  public func read(
    types: [String], from pasteboard: String = WireProtocol.defaultPasteboard, limit: Int
  ) throws(BrokerClientError) -> (type: String, data: Data)? {
    var data = Data()
    var passed = false
    do {
      let answer = try requestRead(types, from: pasteboard, inPlace: nil) {
        bytes throws(BrokerClientError) in
        guard data.count + bytes.count <= limit else {
          passed = true
          throw BrokerClientError(code: .io, message: "past \(limit) bytes")
        }
        data.append(contentsOf: bytes)
      }
      return (answer.type, data)
    } catch {
      guard passed else { throw error }
      close()
      return nil
    }
  }

  /// What a pasteboard holds: its types, stored and converted, its change count, whether it
  /// is concealed.
  public func types(of pasteboard: String = WireProtocol.defaultPasteboard)
    throws(BrokerClientError) -> PasteboardState
  {
    try connection.send(.json(.request, TypesRequest(pasteboard: pasteboard)))
    return try connection.expectResponse(PasteboardState.self)
  }

  /// Sends a read and hands the bytes that follow its answer to `consume`.
  private func requestRead(
    _ types: [String], from pasteboard: String, inPlace: Bool?,
    consume: ([UInt8]) throws(BrokerClientError) -> Void
  ) throws(BrokerClientError) -> ReadResponse {
    let request = ReadRequest(pasteboard: pasteboard, types: types, inPlace: inPlace)
    try connection.send(Frame(kind: .request, body: request.compactJSON.serialized))
    return try receiveRead(consume: consume)
  }

  /// Receives the answer to a request served as `read` is — a ``ReadResponse`` and the bytes
  /// — handing the bytes to `consume`.
  func receiveRead(consume: ([UInt8]) throws(BrokerClientError) -> Void) throws(BrokerClientError)
    -> ReadResponse
  {
    let answer = try connection.compact(
      try connection.responseFrame(), ReadResponse.init(compact:))
    try connection.receiveRepresentation { bytes throws(BrokerClientError) in
      if answer.file != nil { throw connection.protocolViolation("DATA after a file answer") }
      try consume(bytes)
    }
    return answer
  }

  /// Writes all of `bytes` to `descriptor`, waiting for room.
  ///
  /// - Throws: ``BrokerClientError`` `io` when the write fails.
  static func writeAll(_ bytes: [UInt8], to descriptor: Int32) throws(BrokerClientError) {
    let failure: Errno? = bytes.withUnsafeBytes { raw in
      do throws(Errno) {
        try FileDescriptor(rawValue: descriptor).writeAll(from: raw, waitingForRoom: true)
        return nil
      } catch {
        return error
      }
    }
    if let failure {
      throw BrokerClientError(code: .io, message: "writing the output failed: \(failure)")
    }
  }

  /// Copies the broker's file `file` to `descriptor`.
  ///
  /// - Returns: `false`, having written nothing, when the file cannot be opened or is not the
  ///   one named (the item was replaced, or the broker's files are out of reach).
  private func copyInPlace(_ file: FileReference, to descriptor: Int32) throws(BrokerClientError)
    -> Bool
  {
    let source = open(file.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
    guard source >= 0 else { return false }
    defer { Glibc.close(source) }
    var info = stat()
    guard fstat(source, &info) == 0, UInt64(info.st_dev) == file.device,
      UInt64(info.st_ino) == file.inode,
      Int64(info.st_size) == file.size, info.st_mode & S_IFMT == S_IFREG
    else { return false }
    do throws(FileCopy.Failure) {
      try FileCopy.copy(from: source, count: Int(file.size), to: descriptor)
      return true
    } catch {
      close()
      switch error {
      case .source(let error):
        let reason = error.map { "\($0)" } ?? "it ended early"
        throw BrokerClientError(
          code: .io, message: "reading the broker's copy \(file.path) failed: \(reason)")
      case .destination(let error):
        throw BrokerClientError(code: .io, message: "writing the output failed: \(error)")
      }
    }
  }
}
