extension UTType {
  /// Whether this type is `type` or conforms to it, directly or through its supertypes.
  ///
  /// ```swift
  /// UTType.jpeg.conforms(to: .image)   // true
  /// UTType.jpeg.conforms(to: .jpeg)    // true
  /// UTType.image.conforms(to: .jpeg)   // false
  /// ```
  ///
  /// - Parameter type: The type to test against.
  /// - Returns: `true` when every `type` reader can read this type.
  public func conforms(to type: UTType) -> Bool {
    if let mine = systemRow, let theirs = type.systemRow {
      return mine == theirs || SystemTypeTable.records[mine].systemAncestors.contains(theirs)
    }
    return TypeRegistry.shared.conforms(key, to: type.key)
  }

  /// Whether `type` conforms to this type and is not this type.
  ///
  /// ```swift
  /// UTType.image.isSupertype(of: .png)   // true
  /// ```
  public func isSupertype(of type: UTType) -> Bool {
    key != type.key && type.conforms(to: self)
  }

  /// Whether this type conforms to `type` and is not `type`.
  ///
  /// ```swift
  /// UTType.png.isSubtype(of: .image)   // true
  /// UTType.png.isSubtype(of: .png)     // false
  /// ```
  public func isSubtype(of type: UTType) -> Bool {
    key != type.key && conforms(to: type)
  }
}
