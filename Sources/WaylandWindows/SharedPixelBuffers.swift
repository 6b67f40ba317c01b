import FerrySystem
import RasterDrawing

#if canImport(Glibc)
  import Glibc
#endif

/// The pixel buffers of one client-drawn window (issue 40): `count` frames of `width` ×
/// `height` XRGB8888 pixels in one memory file (`memfd_create`), mapped shared, which
/// `wl_shm.create_pool` hands the compositor. A frame is drawn only while the compositor does
/// not hold it: ``take()`` gives a free one and marks it held once it is attached;
/// ``released(_:)`` (its `wl_buffer.release`) frees it again. With two frames a window redraws
/// while the compositor still shows the other — double buffering, never tearing.
///
/// ```swift
/// let buffers = try SharedPixelBuffers(width: 320, height: 120)
/// if let frame = buffers.take() { buffers.copy(canvas, into: frame) }  // then attach, commit
/// buffers.released(frame)                                               // on wl_buffer.release
/// ```
public final class SharedPixelBuffers {
  /// Each frame's width in pixels.
  public let width: Int
  /// Each frame's height.
  public let height: Int
  /// Bytes a row: `width` × 4.
  public var stride: Int { width * 4 }
  /// Bytes a frame.
  public var frameSize: Int { stride * height }
  /// The memory file the frames are in, for `wl_shm.create_pool` (its size is ``poolSize``).
  public let file: FileDescriptor
  /// The pool's size in bytes: every frame.
  public var poolSize: Int { frameSize * held.count }
  private let memory: UnsafeMutableRawPointer
  private var held: [Bool]

  /// `count` frames of `width` × `height` pixels (at least 1 × 1), white.
  ///
  /// - Throws: `Errno` when the memory file cannot be made, sized or mapped.
  public init(width: Int, height: Int, count: Int = 2) throws(Errno) {
    self.width = max(width, 1)
    self.height = max(height, 1)
    held = Array(repeating: false, count: max(count, 1))
    let file = try FileDescriptor.memoryFile(named: "ferry-window")
    let size = self.width * 4 * self.height * held.count
    guard ftruncate(file.rawValue, off_t(size)) == 0 else {
      let error = Errno.last
      try? file.close()
      throw error
    }
    guard
      let address = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, file.rawValue, 0),
      address != MAP_FAILED
    else {
      let error = Errno.last
      try? file.close()
      throw error
    }
    self.file = file
    memory = address
    memset(memory, 0xFF, size)
  }

  deinit {
    munmap(memory, poolSize)
    try? file.close()
  }

  /// A frame the compositor does not hold, now marked held (it is about to be attached), or
  /// `nil` when it holds them all: draw again on the next release.
  public func take() -> Int? {
    guard let free = held.firstIndex(of: false) else { return nil }
    held[free] = true
    return free
  }

  /// The compositor let `frame` go (`wl_buffer.release`): it may be drawn into again.
  public func released(_ frame: Int) {
    guard held.indices.contains(frame) else { return }
    held[frame] = false
  }

  /// Whether the compositor holds `frame`.
  public func isHeld(_ frame: Int) -> Bool { held.indices.contains(frame) && held[frame] }

  /// Where `frame` starts in the pool, in bytes (`wl_shm_pool.create_buffer`'s offset).
  public func offset(of frame: Int) -> Int { frame * frameSize }

  /// Copies `canvas` into `frame`, as XRGB8888 in little-endian order; what does not fit is
  /// cut, what the canvas does not cover stays white.
  public func copy(_ canvas: RasterCanvas, into frame: Int) {
    precondition(held.indices.contains(frame), "no frame \(frame)")
    let base = (memory + offset(of: frame)).bindMemory(to: UInt32.self, capacity: width * height)
    let rows = min(canvas.height, height)
    let columns = min(canvas.width, width)
    canvas.pixels.withUnsafeBufferPointer { pixels in
      for row in 0..<height {
        for column in 0..<width {
          let pixel =
            row < rows && column < columns
            ? pixels[row * canvas.width + column] : RasterCanvas.white
          base[row * width + column] = pixel.littleEndian
        }
      }
    }
  }
}
