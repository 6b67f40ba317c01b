internal import CX11

/// Atoms by name and names by atom, cached on the connection.
extension X11Connection {
  /// The atom for `name`, interned if needed (one round trip the first time).
  public func atom(_ name: String) -> XAtom {
    if let known = atomsByName[name] { return known }
    let atom = XAtom(rawValue: UInt(XInternAtom(display, name, 0)))
    atomsByName[name] = atom
    atomNames[atom] = name
    return atom
  }

  /// The atoms for `names`, interning those not yet known in one round trip.
  public func atoms(_ names: [String]) -> [XAtom] {
    let unknown = Array(Set(names.filter { atomsByName[$0] == nil }))
    if !unknown.isEmpty {
      for (name, atom) in zip(unknown, Self.intern(unknown, on: display)) {
        atomsByName[name] = atom
        atomNames[atom] = name
      }
    }
    return names.map { atomsByName[$0]! }
  }

  /// The names of `atoms`, fetching unknown ones in one round trip; `nil` for invalid atoms.
  public func names(_ atoms: [XAtom]) -> [String?] {
    let unknown = Array(Set(atoms.filter { atomNames[$0] == nil && $0 != .none }))
    if !unknown.isEmpty {
      var raw = unknown.map { Atom($0.rawValue) }
      var names = [UnsafeMutablePointer<CChar>?](repeating: nil, count: unknown.count)
      if XGetAtomNames(display, &raw, Int32(raw.count), &names) != 0 {
        for (atom, name) in zip(unknown, names) {
          if let name {
            atomNames[atom] = String(cString: name)
            atomsByName[String(cString: name)] = atom
            XFree(name)
          }
        }
      } else {
        // One bad atom fails the batch: ask one at a time.
        _ = takeErrors()
        for atom in unknown {
          if let name = XGetAtomName(display, Atom(atom.rawValue)) {
            atomNames[atom] = String(cString: name)
            XFree(name)
          }
        }
        _ = takeErrors()
      }
    }
    return atoms.map { atomNames[$0] }
  }

  /// The name of `atom`; `nil` when the server knows no such atom.
  public func name(_ atom: XAtom) -> String? { names([atom])[0] }

  /// The atom of `selection`, interned if needed.
  public func atom(_ selection: Selection) -> XAtom { atom(selection.rawValue) }

  /// The selection `atom` names, or `nil` when the server knows no such atom.
  public func selection(named atom: XAtom) -> Selection? {
    name(atom).map(Selection.init(rawValue:))
  }
}
