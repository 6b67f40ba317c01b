extension UTType {
  /// The type's tags as its declaration gives them, without what the shared-mime-info
  /// database adds to a system type (``tags`` includes those): reading them never loads the
  /// database, which costs a process that has not loaded it yet about 15 ms.
  ///
  /// ```swift
  /// UTType.png._declaredTags[.mimeType]   // ["image/png"]
  /// ```
  package var _declaredTags: [UTTagClass: [String]] {
    TypeRegistry.shared.tags(ofKey: key, includingMIMEDatabase: false)
  }
}
