import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

@testable import X11Selections

/// `X11Display.readOnce`: one read on a display opened for it, all on the calling thread (the
/// way `pbpaste` reads without a broker), with the outcomes of a read on the X thread.
@Suite(.skipsWithoutPeers) struct ReadOnceTests {
  @Test func readsTheOwnersText() async throws {
    let (xvfb, owner) = try await openDisplay()
    defer { owner.close() }
    let selection = uniqueSelection("once")
    try await owner.own(selection, item: textItem("read on this thread"))
    let name = xvfb.name
    let reply = try await DetachedThread.run {
      try X11Display.readOnce(
        display: name, selection, target: "UTF8_STRING", lostInsideXlib: { fatalError("lost") })
    }
    #expect(reply.type == "UTF8_STRING")
    #expect(String(decoding: reply.data, as: UTF8.self) == "read on this thread")
  }

  @Test func aSelectionNobodyOwnsFailsWithNoOwner() async throws {
    let (xvfb, display) = try await openDisplay()
    display.close()
    let selection = uniqueSelection("unowned")
    let name = xvfb.name
    let error = await #expect(throws: X11Error.self) {
      try await DetachedThread.run {
        try X11Display.readOnce(
          display: name, selection, target: "UTF8_STRING", lostInsideXlib: { fatalError("lost") })
      }
    }
    guard case .noOwner = error else {
      Issue.record("expected noOwner, got \(String(describing: error))")
      return
    }
  }

  @Test func aDisplayThatCannotBeOpenedFails() async throws {
    let error = await #expect(throws: X11Error.self) {
      try await DetachedThread.run {
        try X11Display.readOnce(
          display: ":4999", .clipboard, target: "UTF8_STRING",
          lostInsideXlib: { fatalError("lost") })
      }
    }
    guard case .cannotOpenDisplay = error else {
      Issue.record("expected cannotOpenDisplay, got \(String(describing: error))")
      return
    }
  }
}
