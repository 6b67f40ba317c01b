import FerryClient

extension ExitStatus {
  /// The status a broker failure ends a command with.
  ///
  /// | status | codes |
  /// |---|---|
  /// | 1 | `empty`, `notAvailable`, `notFound`, `historyOff`: nothing to paste, not in that type, no such history entry, no history |
  /// | 2 | `badRequest`, `unknownType`, `frameTooLarge`: the request was wrong |
  /// | 3 | `noBroker`: no broker answers at the socket |
  /// | 4 | `timeout` |
  /// | 5 | `invalidDeclaration`: the file given to `ferry register` is not a declaration file |
  /// | 6 | anything else: the broker failed (`internal`, `providerFailed`, `busy`, `unsupportedVersion`), the connection was lost, an I/O error, another user's broker, socket or directory (`forbidden`, `unsafeSocket`), and codes newer than this version |
  public init(_ error: BrokerClientError) {
    switch error.code {
    case .empty, .notAvailable, .notFound, .historyOff: self = .nothingAvailable
    case .badRequest, .unknownType, .frameTooLarge: self = .usage
    case .noBroker: self = .noDisplayNoBroker
    case .timeout: self = .timeout
    case .invalidDeclaration: self = .badInput
    default: self = .io
    }
  }
}

extension CommandFailure {
  /// The failure a broker error ends a command with: its message and ``ExitStatus/init(_:)``.
  public init(_ error: BrokerClientError) {
    self.init(error.message, status: ExitStatus(error))
  }
}
