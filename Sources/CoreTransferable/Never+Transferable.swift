/// `Never` is the ``TransferRepresentation/Body`` of the representations that have none.
extension Never: TransferRepresentation {
  /// `Never`: an uninhabited representation converts nothing.
  ///
  /// ```swift
  /// Never.Item.self == Never.self   // true
  /// ```
  public typealias Item = Never
}

/// `Never` is the representation of an uninhabited transferable type.
extension Never: Transferable {
  /// `Never`: the representation of a type with no values.
  ///
  /// ```swift
  /// Never.Representation.self == Never.self   // true
  /// ```
  public typealias Representation = Never
}

// The witnesses live outside the conformances so that the result builder is not applied to
// their bodies.
extension Never {
  /// Never produced: `Never` has no values to transfer.
  ///
  /// ```swift
  /// Never.exportedContentTypes()   // [] — reading the property itself traps
  /// ```
  public static var transferRepresentation: Never {
    preconditionFailure("Never has no transfer representation")
  }

  /// Never produced: `Never` has no values.
  ///
  /// The built-in representations declare `Body == Never`; this is the body they share.
  ///
  /// ```swift
  /// DataRepresentation<Data>.Body.self == Never.self   // true
  /// ```
  public var body: Never {
    preconditionFailure("Never has no body")
  }
}
