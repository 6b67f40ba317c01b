import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

/// The committed data-control glue (CWaylandDataControl) links and speaks to a real
/// compositor: a client on it binds `zwlr_data_control_manager_v1` from headless sway 1.7's
/// registry at version 2, and its data device announces and serves the selections wl-copy set.
@Suite(.serialized, .skipsWithoutPeers) struct DataControlGlueTests {
  let session: WaylandSession

  init() async throws {
    session = try await WaylandSession.dedicated("DataControlGlueTests")
  }

  @Test func theWlrManagerIsBoundAtVersionTwo() async throws {
    let session = session
    let report = try await DetachedThread.run {
      try DataControlProbe.probe(socketPath: session.socketPath)
    }
    let advertised = try #require(
      report.advertised["zwlr_data_control_manager_v1"], "advertised: \(report.advertised)")
    #expect(advertised >= 2)
    #expect(report.boundVersion == 2)
    #expect(report.advertised["wl_seat"] != nil)
  }

  @Test func theDeviceAnnouncesAndServesBothSelections() async throws {
    let text = "through the glue \(UUID().uuidString)"
    let primary = "primary through the glue \(UUID().uuidString)"
    #expect(
      try await session.runServing(["wl-copy", "--type", "text/x-ferry-glue", text]).status == 0)
    #expect(try await session.runServing(["wl-copy", "--primary", primary]).status == 0)
    let session = session
    let report = try await DetachedThread.run {
      try DataControlProbe.probe(socketPath: session.socketPath)
    }
    // In wl-copy's order: the given type first, then the text types it adds.
    #expect(
      report.clipboardTypes?.first == "text/x-ferry-glue",
      "clipboard: \(report.clipboardTypes ?? [])")
    #expect(report.clipboardTypes?.contains("text/plain;charset=utf-8") == true)
    #expect(report.clipboardText == text)
    #expect(report.sawPrimarySelection)
    #expect(
      report.primaryTypes?.contains("text/plain;charset=utf-8") == true,
      "primary: \(report.primaryTypes ?? [])")
    #expect(!report.deviceFinished)
  }
}
