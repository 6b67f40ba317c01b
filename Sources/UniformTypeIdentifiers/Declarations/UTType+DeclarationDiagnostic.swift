extension UTType {
  /// A problem in a type declaration file: which file, which entry, and what is wrong.
  ///
  /// Loading goes on past every problem: the entry (or the one conformance) at fault is left
  /// out and everything else loads. A conformance to a type nobody declares yet is the
  /// exception: it is kept, and reported only while that type stays undeclared.
  ///
  /// ```swift
  /// for problem in UTType.loadDeclarations(from: "/etc/ferry/types/broken.json") {
  ///   print(problem)   // broken.json: UTExportedTypeDeclarations[1]: no UTTypeIdentifier
  /// }
  /// ```
  public struct DeclarationDiagnostic: Error, CustomStringConvertible, Hashable, Sendable {
    /// What is wrong.
    public enum Problem: Hashable, Sendable {
      /// The file could not be read.
      case unreadable
      /// The file is not a JSON object or property list of the expected shape.
      case malformed(String)
      /// The entry has no `UTTypeIdentifier`.
      case missingIdentifier
      /// The identifier is not an ASCII reverse-DNS string.
      case invalidIdentifier(String)
      /// The identifier lies in a namespace reserved to the system.
      case reservedNamespace(identifier: String, namespace: String)
      /// The identifier is a system type, which a file cannot redeclare.
      case systemType(String)
      /// `UTTypeConformsTo` names a type nobody declares yet. The conformance is kept and
      /// counts from the moment a file or code declares that type, as Apple resolves
      /// conformance when asked; ``UTType/declarationDiagnostics`` lists it only while the
      /// type is still undeclared.
      case unknownParent(identifier: String, parent: String)
      /// The conformances form a cycle; the conformance that closes it is dropped.
      case conformanceCycle([String])
    }

    /// The file the problem is in.
    public let file: String
    /// The entry, such as `UTExportedTypeDeclarations[2]`, when the problem is in one.
    public let entry: String?
    /// What is wrong.
    public let problem: Problem

    /// Creates a diagnostic.
    public init(file: String, entry: String?, problem: Problem) {
      self.file = file
      self.entry = entry
      self.problem = problem
    }

    /// One line naming the file, the entry and the problem: a control, line or paragraph
    /// separator character the file or its name held is written `\u{A}`.
    public var description: String { lines.writingLineBreaksAsEscapes }

    private var lines: String {
      let place = entry.map { "\(file): \($0)" } ?? file
      switch problem {
      case .unreadable:
        return "\(place): cannot read the file"
      case .malformed(let reason):
        return "\(place): \(reason)"
      case .missingIdentifier:
        return "\(place): no UTTypeIdentifier"
      case .invalidIdentifier(let identifier):
        return "\(place): '\(identifier)' is not an ASCII reverse-DNS identifier"
      case .reservedNamespace(let identifier, let namespace):
        return "\(place): '\(identifier)' is in the reserved namespace '\(namespace)'; refused"
      case .systemType(let identifier):
        return "\(place): '\(identifier)' is a system type and cannot be redeclared; ignored"
      case .unknownParent(let identifier, let parent):
        return "\(place): '\(identifier)' conforms to '\(parent)', which nothing declares yet"
      case .conformanceCycle(let cycle):
        return
          "\(place): conformance cycle \(cycle.joined(separator: " → ")); last conformance dropped"
      }
    }
  }
}

extension String {
  /// The text with every control, line separator and paragraph separator character written
  /// as `\u{…}`, so that it stays on one line whatever it quotes.
  package var writingLineBreaksAsEscapes: String {
    let breaks: [Unicode.GeneralCategory] = [.control, .lineSeparator, .paragraphSeparator]
    guard unicodeScalars.contains(where: { breaks.contains($0.properties.generalCategory) })
    else { return self }
    var written = ""
    for scalar in unicodeScalars {
      if breaks.contains(scalar.properties.generalCategory) {
        written += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      } else {
        written.unicodeScalars.append(scalar)
      }
    }
    return written
  }
}
