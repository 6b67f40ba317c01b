#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension BrokerClient {
  /// Where a representation's bytes come from.
  public enum Source: Sendable {
    /// Bytes in memory.
    case data(Data)
    /// A descriptor read to its end (a file, a pipe, standard input), never whole into
    /// memory. The descriptor is not closed.
    case fileDescriptor(Int32)
  }

  /// One representation to write: its type and where its bytes come from.
  public struct Representation: Sendable {
    /// A type identifier or a MIME type.
    public var type: String
    /// The bytes.
    public var source: Source

    /// Creates a representation of `type` whose bytes come from `source`.
    public init(type: String, source: Source) {
      self.type = type
      self.source = source
    }

    /// A representation whose bytes are in memory.
    public static func data(_ data: Data, type: String) -> Representation {
      Representation(type: type, source: .data(data))
    }
  }
}
