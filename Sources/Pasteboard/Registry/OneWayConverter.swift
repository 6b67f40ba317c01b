import UniformTypeIdentifiers

/// A converter from one declared type to one other: what declaration files register
/// (``JSONFieldConverter``, ``CommandConverter``).
public protocol OneWayConverter: PasteboardConverter {
  /// The type converted from; anything conforming to it is accepted.
  var source: UTType { get }
  /// The type converted to.
  var target: UTType { get }
}

extension OneWayConverter {
  /// ``target`` when `source` conforms to ``source`` (and is not the target itself); else none.
  public func outputs(from source: UTType) -> [UTType] {
    source.conforms(to: self.source) && source != target ? [target] : []
  }
}
