import ClipboardHistory
import FerryProtocol

extension ProtocolFailure {
  /// The refusal a history error becomes: `notFound` for an unknown id, `providerFailed` for
  /// a blob removed behind the history's back, `internal` for the rest.
  init(_ error: HistoryError) {
    switch error {
    case .noSuchEntry: self = .refusal(.notFound, error.description)
    case .blobUnavailable, .noSuchRepresentation:
      self = .refusal(.providerFailed, error.description)
    default: self = .refusal(.internal, "the clipboard history failed: \(error)")
    }
  }
}
