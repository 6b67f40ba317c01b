import FerryProtocol
import FerrySystem

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
  /// Registers a declaration file's types and conversions with the broker.
  ///
  /// - Parameters:
  ///   - name: The file's name, for diagnostics; registering the same name again replaces
  ///     the earlier registration.
  ///   - contents: The file's bytes.
  ///   - allowExampleNamespace: Accept `com.example` identifiers.
  /// - Returns: One line per problem; empty when everything registered.
  /// - Throws: ``BrokerClientError``: `invalidDeclaration` when the file is not a declaration
  ///   file at all.
  public func register(
    declarationNamed name: String, contents: Data, allowExampleNamespace: Bool = false
  ) throws(BrokerClientError) -> [String] {
    try connection.send(
      .json(
        .request,
        RegisterRequest(name: name, allowExampleNamespace: allowExampleNamespace ? true : nil)))
    if let refusal = try connection.sendRepresentations([.data(contents)]) { throw refusal }
    return try connection.expectResponse(RegisterResponse.self).problems
  }

  /// Registers the declaration file at `path`.
  ///
  /// - Throws: ``BrokerClientError``: `io` when the file cannot be opened, and as
  ///   ``register(declarationNamed:contents:allowExampleNamespace:)``.
  public func register(declarationAt path: String, allowExampleNamespace: Bool = false)
    throws(BrokerClientError) -> [String]
  {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw BrokerClientError(code: .io, message: "cannot open \(path): \(Errno.last)")
    }
    defer { Glibc.close(descriptor) }
    let name = path.split(separator: "/").last.map(String.init) ?? path
    let request = RegisterRequest(
      name: name, allowExampleNamespace: allowExampleNamespace ? true : nil,
      directory: Self.directory(of: path))
    try connection.send(.json(.request, request))
    if let refusal = try connection.sendRepresentations([.fileDescriptor(descriptor)]) {
      throw refusal
    }
    return try connection.expectResponse(RegisterResponse.self).problems
  }

  /// The absolute directory holding `path` (relative to the working directory when `path` is).
  static func directory(of path: String) -> String? {
    var absolute = path
    if !path.hasPrefix("/") {
      guard let cwd = getcwd(nil, 0) else { return nil }
      defer { free(cwd) }
      absolute = String(cString: cwd) + "/" + path
    }
    let parent = absolute.split(separator: "/", omittingEmptySubsequences: true).dropLast()
    return "/" + parent.joined(separator: "/")
  }
}
