import FerryTestSupport
import Foundation
import RasterDrawing
import Testing
import WaylandWindows

#if canImport(Glibc)
  import Glibc
#endif

/// The window's frames: the compositor's view of the pool (the memory file mapped again, as
/// it maps it) holds what was drawn, and a frame it holds is never handed out to draw into.
@Suite struct SharedPixelBuffersTests {
  @Test func aFrameHeldByTheCompositorIsNotDrawnIntoUntilReleased() throws {
    let buffers = try SharedPixelBuffers(width: 4, height: 3)
    let first = try #require(buffers.take())
    let second = try #require(buffers.take())
    #expect(first != second)
    #expect(buffers.take() == nil, "both attached: wait for a release")
    buffers.released(first)
    #expect(!buffers.isHeld(first) && buffers.isHeld(second))
    #expect(buffers.take() == first)
    #expect(buffers.offset(of: second) == buffers.frameSize * second)
    #expect(buffers.poolSize == 2 * 4 * 4 * 3)
  }

  @Test func theCompositorReadsWhatWasDrawnAsXRGB8888() throws {
    let buffers = try SharedPixelBuffers(width: 7, height: 5)
    var canvas = RasterCanvas(width: 6, height: 5)
    canvas.fillRectangle(x: 1, y: 1, width: 2, height: 2, color: 0x0012_3456)
    _ = try #require(buffers.take())
    let frame = try #require(buffers.take())
    buffers.copy(canvas, into: frame)
    // The compositor's side: its own mapping of the same file.
    let size = buffers.poolSize
    let mapped = try #require(
      mmap(nil, size, PROT_READ, MAP_SHARED, buffers.file.rawValue, 0).flatMap {
        $0 == MAP_FAILED ? nil : $0
      })
    defer { munmap(mapped, size) }
    let bytes = UnsafeRawBufferPointer(start: mapped, count: size)
    func pixel(_ x: Int, _ y: Int) -> [UInt8] {
      let at = buffers.offset(of: frame) + y * buffers.stride + x * 4
      return Array(bytes[at..<at + 4])
    }
    #expect(pixel(1, 1) == [0x56, 0x34, 0x12, 0x00], "blue, green, red, unused: little-endian")
    #expect(pixel(0, 0) == [0xFF, 0xFF, 0xFF, 0x00])
    #expect(pixel(6, 4) == [0xFF, 0xFF, 0xFF, 0x00], "past the canvas: white")
  }
}
