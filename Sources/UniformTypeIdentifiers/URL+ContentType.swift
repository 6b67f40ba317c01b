import FoundationEssentials

extension URL {
  /// Returns this URL with `partialName` appended as a path component, given the preferred
  /// filename extension of `contentType` unless it already has an extension valid for that
  /// type.
  ///
  /// Use it to name a download or an export after its type:
  ///
  /// ```swift
  /// let folder = URL(filePath: "/tmp/exports/")
  /// folder.appendingPathComponent("puppy.jpg", conformingTo: .image)       // …/puppy.jpg
  /// folder.appendingPathComponent("puppy.jpg", conformingTo: .plainText)   // …/puppy.jpg.txt
  /// folder.appendingPathComponent("notes", conformingTo: .plainText)       // …/notes.txt
  /// ```
  ///
  /// - Parameters:
  ///   - partialName: The file name, with or without an extension.
  ///   - contentType: The type the file holds.
  /// - Returns: The URL of the file.
  public func appendingPathComponent(_ partialName: String, conformingTo contentType: UTType) -> URL
  {
    appendingPathComponent(partialName.appendingPathExtension(for: contentType))
  }

  /// Appends `partialName` as a path component, with the preferred filename extension of
  /// `contentType` unless it already has an extension valid for that type.
  ///
  /// - Parameters:
  ///   - partialName: The file name, with or without an extension.
  ///   - contentType: The type the file holds.
  public mutating func appendPathComponent(_ partialName: String, conformingTo contentType: UTType)
  {
    self = appendingPathComponent(partialName, conformingTo: contentType)
  }

  /// Returns this URL with the preferred filename extension of `contentType` appended, unless
  /// its last path component already has an extension valid for that type.
  ///
  /// A type with no preferred extension leaves the URL as it is.
  ///
  /// ```swift
  /// URL(filePath: "/tmp/puppy").appendingPathExtension(for: .png)       // /tmp/puppy.png
  /// URL(filePath: "/tmp/puppy.PNG").appendingPathExtension(for: .image) // /tmp/puppy.PNG
  /// ```
  ///
  /// - Parameter contentType: The type the file holds.
  /// - Returns: The URL with the type's extension.
  public func appendingPathExtension(for contentType: UTType) -> URL {
    guard let pathExtension = contentType.extensionToAppend(toName: lastPathComponent) else {
      return self
    }
    return appendingPathExtension(pathExtension)
  }

  /// Appends the preferred filename extension of `contentType`, unless the last path
  /// component already has an extension valid for that type.
  ///
  /// - Parameter contentType: The type the file holds.
  public mutating func appendPathExtension(for contentType: UTType) {
    self = appendingPathExtension(for: contentType)
  }
}

extension StringProtocol {
  /// Returns this path with `partialName` appended as a path component, given the preferred
  /// filename extension of `contentType` unless it already has an extension valid for it.
  ///
  /// The `String` counterpart of `NSString`'s method of the same name, without Foundation's
  /// `NSString`.
  ///
  /// ```swift
  /// "/tmp/exports".appendingPathComponent("notes", conformingTo: .plainText)   // "/tmp/exports/notes.txt"
  /// ```
  ///
  /// - Parameters:
  ///   - partialName: The file name, with or without an extension.
  ///   - contentType: The type the file holds.
  /// - Returns: The path of the file.
  public func appendingPathComponent(_ partialName: String, conformingTo contentType: UTType)
    -> String
  {
    let name = partialName.appendingPathExtension(for: contentType)
    if isEmpty { return name }
    return hasSuffix("/") ? String(self) + name : String(self) + "/" + name
  }

  /// Returns this path with the preferred filename extension of `contentType` appended,
  /// unless its last component already has an extension valid for that type.
  ///
  /// The `String` counterpart of `NSString`'s method of the same name. A type with no
  /// preferred extension leaves the path as it is.
  ///
  /// ```swift
  /// "puppy.jpg".appendingPathExtension(for: .image)       // "puppy.jpg"
  /// "puppy.jpg".appendingPathExtension(for: .plainText)   // "puppy.jpg.txt"
  /// ```
  ///
  /// - Parameter contentType: The type the file holds.
  /// - Returns: The path with the type's extension.
  public func appendingPathExtension(for contentType: UTType) -> String {
    var path = String(self)
    while path.count > 1, path.hasSuffix("/") { path.removeLast() }
    let name = path.split(separator: "/").last.map(String.init) ?? path
    guard let pathExtension = contentType.extensionToAppend(toName: name) else { return path }
    return path + "." + pathExtension
  }
}

extension UTType {
  /// The extension to give a file named `name` so that it names this type: `nil` when the
  /// name's own extension already names a type conforming to this one, or when this type has
  /// no preferred extension.
  func extensionToAppend(toName name: String) -> String? {
    guard let preferred = preferredFilenameExtension else { return nil }
    if let dot = name.lastIndex(of: "."), dot != name.startIndex {
      let existing = String(name[name.index(after: dot)...])
      if !existing.isEmpty,
        let existingType = UTType(filenameExtension: existing, conformingTo: self),
        existingType.isDeclared
      {
        return nil
      }
    }
    return preferred
  }
}
