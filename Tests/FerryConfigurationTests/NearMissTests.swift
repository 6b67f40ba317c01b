import NearMiss
import Testing

@Suite struct NearMissTests {
  @Test(arguments: [
    ("genral", "general", 1), ("histroy", "history", 1), ("abc", "abc", 0), ("", "ab", 2),
    ("kitten", "sitting", 3),
  ])
  func theDistanceCountsEditsAndSwaps(a: String, b: String, distance: Int) {
    #expect(NearMiss.distance(a, b) == distance)
  }

  @Test func theClosestNameWithinTheLimitIsChosen() {
    #expect(
      NearMiss.closest(to: "Histroy.entries", among: ["history.size", "history.entries"])
        == "history.entries")
    #expect(NearMiss.closest(to: "colour", among: ["history.size", "log-level"]) == nil)
  }
}
