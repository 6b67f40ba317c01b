import FerrySystem
import Logging
import NIOCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// What the listening socket does when `accept` fails for want of descriptors (`EMFILE`,
/// `ENFILE`): sheds the waiting connections instead of retrying.
///
/// NIO keeps the listener registered for reading after a failed `accept`, and the socket
/// stays readable while connections wait, so the event loop would retry at once, forever, at
/// 100% CPU (NIO's `AcceptBackoffHandler` only delays the *next* read, which never comes).
/// This handler sits first in the listener's pipeline and, on such an error:
///
/// 1. closes a reserve descriptor (`/dev/null`, opened in advance), which makes room for one
///    `accept`, and accepts every waiting connection itself, answering each with
///    `ERROR busy` and closing it, then opens the reserve again;
/// 2. when the reserve cannot be had back (another thread took the descriptor), stops
///    reading the listener and reads it again after a back-off (100 ms, doubling to 1.6 s),
///    trying the reserve first. Those wake-ups happen only while descriptors are short.
///
/// ``ConnectionAdmission`` keeps connections below the limit, so this is the last line: it
/// covers descriptors taken by other things (spool files, converters' pipes).
final class AcceptShedding: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = any Channel

  /// The listening socket's descriptor (owned by the channel).
  private let listener: Int32
  private let logger: Logger
  private var reserve: Int32 = -1
  private var backoff: TimeAmount = .milliseconds(100)
  private var resumption: Scheduled<Void>?

  init(listener: Int32, logger: Logger) {
    self.listener = listener
    self.logger = logger
    reserve = Self.openReserve()
  }

  func handlerRemoved(context: ChannelHandlerContext) { releaseAll() }

  func channelInactive(context: ChannelHandlerContext) {
    releaseAll()
    context.fireChannelInactive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    backoff = .milliseconds(100)
    context.fireChannelRead(data)
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    guard let code = (error as? IOError)?.errnoCode,
      [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(code)
    else {
      context.fireErrorCaught(error)
      return
    }
    if reserve < 0 { reserve = Self.openReserve() }
    if reserve >= 0, code == EMFILE || code == ENFILE {
      close(reserve)
      let shed = shedWaitingConnections()
      reserve = Self.openReserve()
      logger.warning(
        "out of file descriptors: refused the connections waiting",
        metadata: ["refused": "\(shed)", "error": "\(error)"])
      if reserve >= 0 { return }
    }
    pause(context)
  }

  /// Accepts, answers and closes every connection waiting on the listener; returns how
  /// many there were.
  private func shedWaitingConnections() -> Int {
    let frame = ConnectionAdmission.busyFrame
    var count = 0
    while true {
      let accepted: CInt
      do {
        accepted = try Errno.retryingInterrupts { accept(listener, nil, nil) }
      } catch .connectionAbort {
        continue
      } catch {
        return count
      }
      count += 1
      _ = frame.withUnsafeBytes {
        send(accepted, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
      }
      close(accepted)
    }
  }

  /// Stops reading the listener until the back-off has passed.
  private func pause(_ context: ChannelHandlerContext) {
    guard resumption == nil else { return }
    logger.warning("out of file descriptors: not accepting for \(backoff)")
    let channel = context.channel
    try? channel.syncOptions?.setOption(.autoRead, value: false)
    let delay = backoff
    backoff = min(backoff * 2, .milliseconds(1600))
    let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
    resumption = context.eventLoop.scheduleTask(in: delay) {
      let handler = loopBound.value
      handler.resumption = nil
      if handler.reserve < 0 { handler.reserve = Self.openReserve() }
      try? channel.syncOptions?.setOption(.autoRead, value: true)
    }
  }

  private func releaseAll() {
    resumption?.cancel()
    resumption = nil
    if reserve >= 0 { close(reserve) }
    reserve = -1
  }

  private static func openReserve() -> Int32 { open("/dev/null", O_RDONLY | O_CLOEXEC) }
}
