import UniformTypeIdentifiers

/// The type of bytes nobody named: text when they are UTF-8, else what the shared-mime-info
/// magic rules say, else what the file name's extension says, else `public.data`.
public enum ContentType {
  /// Infers the type of `bytes`, read from the file `fileName` if any.
  public static func infer(_ bytes: [UInt8], fileName: String?) -> UTType {
    if looksLikeText(bytes) { return .utf8PlainText }
    if let sniffed = UTType._sniffed(from: Array(bytes.prefix(4096))) { return sniffed }
    if let fileName, let dot = fileName.lastIndex(of: "."),
      let type = UTType(filenameExtension: String(fileName[fileName.index(after: dot)...])),
      !type.isDynamic
    {
      return type
    }
    return .data
  }

  /// Whether `bytes` are UTF-8 text: valid UTF-8 without NUL bytes.
  public static func looksLikeText(_ bytes: [UInt8]) -> Bool {
    !bytes.contains(0) && String(validating: bytes, as: UTF8.self) != nil
  }
}
