import Testing

@testable import UniformTypeIdentifiers

/// The generated system table agrees with the rules every other layer follows.
@Suite("System type table")
struct SystemTypeTableTests {
  @Test func claimsFollowTheCatalogOrder() {
    let records = SystemTypeTable.records
    var checked = 0
    for record in records {
      for (tagClass, tags) in record.tags {
        for tag in tags {
          let normalized = TagNormalization.normalize(tag, in: tagClass)
          let claims = SystemTypeTable.catalog.claims(on: normalized, in: tagClass)
          #expect(claims.contains { $0.key == record.key }, "\(record.identifier) claims \(tag)")
          // Preferred tag first, then more ancestors, then table order.
          func rank(_ claim: TypeCatalog.TagClaim) -> (Int, Int, Int) {
            let first = claim.record.tags[tagClass]?.first.map {
              TagNormalization.normalize($0, in: tagClass)
            }
            return (
              first == normalized ? 0 : 1, -claim.record.ancestorCount, claim.record.systemIndex
            )
          }
          let ranks = claims.map(rank)
          #expect(
            zip(ranks, ranks.dropFirst()).allSatisfy { $0 < $1 },
            "claims on \(tag): \(claims.map(\.key))")
          checked += 1
        }
      }
    }
    #expect(checked > 200)
  }

  @Test func everySystemRecordResolvesItsParentsAndClosure() throws {
    let records = SystemTypeTable.records
    #expect(records.count >= 141 + 8 + 18 + 11)
    for record in records {
      #expect(record.layer == .system)
      #expect(!record.ancestorKeys.contains(record.key))
      for parent in record.parentKeys {
        let parentRecord = try #require(
          SystemTypeTable.catalog.records[parent], "\(record.identifier) → \(parent)")
        #expect(record.ancestorKeys.contains(parent))
        #expect(parentRecord.ancestorKeys.isSubset(of: record.ancestorKeys))
      }
      // The closure holds nothing more than the parents' closures.
      let expected = record.parentKeys.reduce(into: Set<String>()) { closure, parent in
        closure.insert(parent)
        closure.formUnion(SystemTypeTable.catalog.records[parent]?.ancestorKeys ?? [])
      }
      #expect(record.ancestorKeys == expected, "\(record.identifier)")
      #expect(TypeIdentifier.isValid(record.identifier))
    }
  }

  @Test func systemIdentifiersAreUnique() {
    let keys = SystemTypeTable.records.map(\.key)
    #expect(Set(keys).count == keys.count)
  }
}
