/// The claims on the tags of one class, found from a tag's normalized bytes.
///
/// A lookup hashes the bytes once and compares them with the stored key: no `String` is made,
/// hashed or compared, and nothing is retained until the caller keeps a record. The table uses
/// open addressing with linear probing and is at most half full.
///
/// The hash (FNV-1a) has no per-process seed, unlike `Dictionary`'s. That is safe because an
/// index never changes once built: no tag can lengthen a probe beyond the longest run of
/// occupied slots the table was built with.
///
/// A class, so that a lookup reads the arrays of an instance it holds instead of copying (and
/// retaining) four of them.
final class TagIndex: Sendable {
  private struct Entry: Sendable {
    var hash: UInt32
    var keyStart: Int32
    var keyCount: Int32
    var claimStart: Int32
    var claimEnd: Int32
  }

  /// Entry number + 1 for each slot; 0 for an empty slot. The count is a power of two.
  private let slots: [Int32]
  private let entries: [Entry]
  /// Every key's bytes, one after the other.
  private let keyBytes: [UInt8]
  /// Every tag's claims, best first, one tag after the other.
  private let claims: [TypeCatalog.TagClaim]

  /// An index of `claimsByTag`, whose keys are normalized tags and whose lists are ordered best
  /// first.
  init(_ claimsByTag: [String: [TypeCatalog.TagClaim]]) {
    var slotCount = 8
    while slotCount < claimsByTag.count * 2 { slotCount *= 2 }
    var slots = [Int32](repeating: 0, count: slotCount)
    var entries: [Entry] = []
    var keyBytes: [UInt8] = []
    var claims: [TypeCatalog.TagClaim] = []
    entries.reserveCapacity(claimsByTag.count)
    for (tag, list) in claimsByTag {
      var key = tag
      let hash = key.withUTF8 { NormalizedTag($0).hash }
      var slot = Int(hash) & (slotCount - 1)
      while slots[slot] != 0 { slot = (slot + 1) & (slotCount - 1) }
      entries.append(
        Entry(
          hash: hash, keyStart: Int32(keyBytes.count), keyCount: Int32(tag.utf8.count),
          claimStart: Int32(claims.count), claimEnd: Int32(claims.count + list.count)))
      slots[slot] = Int32(entries.count)
      keyBytes += tag.utf8
      claims += list
    }
    self.slots = slots
    self.entries = entries
    self.keyBytes = keyBytes
    self.claims = claims
  }

  /// The claims on `tag`, best first; empty when nothing claims it.
  func claims(on tag: NormalizedTag) -> ArraySlice<TypeCatalog.TagClaim> {
    guard let entry = entry(for: tag) else { return [] }
    return claims[Int(entry.claimStart)..<Int(entry.claimEnd)]
  }

  /// The record of the best claim on `tag` that `supertype` admits.
  @inline(__always)
  func preferredRecord(
    on tag: NormalizedTag, admittedBy supertype: TypeRegistry.Supertype
  ) -> TypeRecord? {
    guard let entry = entry(for: tag) else { return nil }
    for index in Int(entry.claimStart)..<Int(entry.claimEnd)
    where supertype.admits(claims[index].record) {
      return claims[index].record
    }
    return nil
  }

  private func entry(for tag: NormalizedTag) -> Entry? {
    let mask = slots.count - 1
    var slot = Int(tag.hash) & mask
    while true {
      let number = slots[slot]
      if number == 0 { return nil }
      let entry = entries[Int(number) - 1]
      if entry.hash == tag.hash, hasKey(entry, equalTo: tag.bytes) { return entry }
      slot = (slot + 1) & mask
    }
  }

  private func hasKey(_ entry: Entry, equalTo bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard Int(entry.keyCount) == bytes.count else { return false }
    let start = Int(entry.keyStart)
    return keyBytes.withUnsafeBufferPointer { keys in
      for offset in bytes.indices where keys[start + offset] != bytes[offset] { return false }
      return true
    }
  }
}

/// A tag in its normalized form (``TagNormalization``), as bytes valid only inside the
/// closure of ``TagNormalization/withNormalized(_:in:_:)``, with their hash.
struct NormalizedTag {
  /// The normalized tag's UTF-8 bytes.
  let bytes: UnsafeBufferPointer<UInt8>
  /// The bytes' hash (FNV-1a, 32 bits), computed once for every index the tag is looked up in.
  let hash: UInt32

  /// A tag whose hash was computed as its bytes were written, with ``hash(_:adding:)``
  /// from ``initialHash``.
  init(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt32) {
    self.bytes = bytes
    self.hash = hash
  }

  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.init(bytes, hash: bytes.reduce(Self.initialHash, Self.hash(_:adding:)))
  }

  static var initialHash: UInt32 { 0x811C_9DC5 }

  /// `hash` with `byte` added.
  @inline(__always)
  static func hash(_ hash: UInt32, adding byte: UInt8) -> UInt32 {
    (hash ^ UInt32(byte)) &* 0x0100_0193
  }
}
