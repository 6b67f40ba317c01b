/// The types every process knows without reading a file: Apple's system declarations and
/// Ferry's desktop types.
///
/// Built on first use from tables compiled into the library, in well under a millisecond, so
/// a command that needs only these types never touches the MIME database.
package enum SystemTypeTable {
  /// The catalog of system types.
  package static let catalog: TypeCatalog = {
    var declarations = appleDeclarations
    for index in declarations.indices {
      if let targets = x11TargetsOfAppleTypes[declarations[index].identifier] {
        declarations[index].tags[.x11Target] = targets
      }
    }
    declarations += desktopDeclarations
    return TypeCatalog.build(
      entries: declarations.map { TypeCatalog.Entry(declaration: $0, layer: .system) })
  }()
}
