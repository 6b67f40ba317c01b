import CWaylandDataControl
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What a data-control client saw of a compositor (``DataControlProbe``).
struct DataControlReport: Sendable {
  /// Every global the registry advertised, by interface name, with its version.
  var advertised: [String: UInt32] = [:]
  /// The version `zwlr_data_control_manager_v1` was bound at: `min(advertised, 2)`.
  var boundVersion: UInt32?
  /// The types of the CLIPBOARD offer the device announced on binding, in their order; `nil`
  /// when it announced no offer (`selection(NULL)`).
  var clipboardTypes: [String]?
  /// The same for PRIMARY; `nil` also when the compositor sent no `primary_selection`.
  var primaryTypes: [String]?
  /// Whether `primary_selection` arrived at all (the compositor supports PRIMARY).
  var sawPrimarySelection = false
  /// Whether the device said it is no longer valid (`finished`).
  var deviceFinished = false
  /// The CLIPBOARD offer's `text/plain;charset=utf-8`, read through a pipe.
  var clipboardText: String?
}

/// The smallest data-control client, on the committed glue (CWaylandDataControl) through
/// libwayland-client: connects, binds `wl_seat` and `zwlr_data_control_manager_v1` from the
/// registry, gets the seat's data device, collects the offers it announces, and reads one.
///
/// Every listener slot is filled (libwayland aborts on an event whose slot is NULL), listener
/// structs live as long as the probe, and callbacks find the probe through their `data`
/// pointer. Every wait is a poll with a deadline (the documented prepare_read loop), never a
/// blocking `wl_display_roundtrip`. Not thread-safe: one thread runs it from start to end.
final class DataControlProbe {
  private let display: OpaquePointer
  private var report = DataControlReport()
  private var registry: OpaquePointer?
  private var names: [String: UInt32] = [:]
  private var manager: OpaquePointer?
  private var seat: OpaquePointer?
  private var device: OpaquePointer?
  /// Every offer announced, with its types in order; all destroyed in close() (a probe sees
  /// one or two).
  private var offers: [OpaquePointer: [String]] = [:]
  private var clipboardOffer: OpaquePointer?
  private var primaryOffer: OpaquePointer?
  private var sawSelection = false
  private var synced = false

  private let registryListener = UnsafeMutablePointer<wl_registry_listener>.allocate(capacity: 1)
  private let seatListener = UnsafeMutablePointer<wl_seat_listener>.allocate(capacity: 1)
  private let deviceListener = UnsafeMutablePointer<zwlr_data_control_device_v1_listener>.allocate(
    capacity: 1)
  private let offerListener = UnsafeMutablePointer<zwlr_data_control_offer_v1_listener>.allocate(
    capacity: 1)
  private let callbackListener = UnsafeMutablePointer<wl_callback_listener>.allocate(capacity: 1)

  /// Connects to the compositor at `socketPath`, reports what it saw, and disconnects.
  static func probe(socketPath: String, within limit: Duration = .seconds(15)) throws
    -> DataControlReport
  {
    let probe = try DataControlProbe(socketPath: socketPath)
    defer { probe.close() }
    return try probe.run(until: .now + limit)
  }

  private init(socketPath: String) throws {
    guard let display = wl_display_connect(socketPath) else {
      throw ProbeError("wl_display_connect(\(socketPath)): \(String(cString: strerror(errno)))")
    }
    self.display = display
    registryListener.initialize(
      to: wl_registry_listener(
        global: { data, _, name, interface, version in
          guard let data, let interface else { return }
          probeOf(data).global(name: name, interface: String(cString: interface), version: version)
        },
        global_remove: { _, _, _ in }))
    seatListener.initialize(
      to: wl_seat_listener(capabilities: { _, _, _ in }, name: { _, _, _ in }))
    deviceListener.initialize(
      to: zwlr_data_control_device_v1_listener(
        data_offer: { data, _, offer in
          guard let data, let offer else { return }
          probeOf(data).introduce(offer)
        },
        selection: { data, _, offer in
          guard let data else { return }
          let probe = probeOf(data)
          probe.sawSelection = true
          probe.clipboardOffer = offer
        },
        finished: { data, _ in
          guard let data else { return }
          probeOf(data).report.deviceFinished = true  // destroyed in close(), as the protocol asks
        },
        primary_selection: { data, _, offer in
          guard let data else { return }
          let probe = probeOf(data)
          probe.report.sawPrimarySelection = true
          probe.primaryOffer = offer
        }))
    offerListener.initialize(
      to: zwlr_data_control_offer_v1_listener(
        offer: { data, offer, type in
          guard let data, let offer, let type else { return }
          probeOf(data).offers[offer, default: []].append(String(cString: type))
        }))
    callbackListener.initialize(
      to: wl_callback_listener(
        done: { data, callback, _ in
          guard let data else { return }
          wl_callback_destroy(callback)
          probeOf(data).synced = true
        }))
  }

  private var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

  private func run(until deadline: ContinuousClock.Instant) throws -> DataControlReport {
    registry = wl_display_get_registry(display)
    wl_registry_add_listener(registry, registryListener, context)
    try roundtrip(until: deadline)  // every global announced, the seat and manager bound
    guard let manager, let seat else { return report }
    device = zwlr_data_control_manager_v1_get_data_device(manager, seat)
    zwlr_data_control_device_v1_add_listener(device, deviceListener, context)
    // The device announces the current CLIPBOARD (and PRIMARY) as it is bound.
    try roundtrip(until: deadline)
    try dispatch(until: deadline) { sawSelection }
    report.clipboardTypes = clipboardOffer.map { offers[$0] ?? [] }
    report.primaryTypes = primaryOffer.map { offers[$0] ?? [] }
    if let clipboardOffer, report.clipboardTypes?.contains("text/plain;charset=utf-8") == true {
      report.clipboardText = try read(
        clipboardOffer, as: "text/plain;charset=utf-8", until: deadline)
    }
    return report
  }

  private func global(name: UInt32, interface: String, version: UInt32) {
    report.advertised[interface] = version
    names[interface] = name
    switch interface {
    case "wl_seat" where seat == nil:
      seat = OpaquePointer(wl_registry_bind(registry, name, ferry_wl_seat_interface(), 1))
      wl_seat_add_listener(seat, seatListener, context)
    case "zwlr_data_control_manager_v1" where manager == nil:
      // As wl-clipboard: the newest version both sides know, at most 2 (primary selection).
      let bound = min(version, 2)
      manager = OpaquePointer(
        wl_registry_bind(registry, name, ferry_zwlr_data_control_manager_v1_interface(), bound))
      report.boundVersion = bound
    default:
      break
    }
  }

  private func introduce(_ offer: OpaquePointer) {
    offers[offer] = []
    zwlr_data_control_offer_v1_add_listener(offer, offerListener, context)
  }

  /// `receive` into a pipe, flush (not dispatch), close the writing end, read to end of file.
  private func read(
    _ offer: OpaquePointer, as type: String, until deadline: ContinuousClock.Instant
  ) throws -> String {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { throw ProbeError("pipe: \(String(cString: strerror(errno)))") }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    defer { Glibc.close(ends[0]) }
    zwlr_data_control_offer_v1_receive(offer, type, ends[1])
    let flushed = wl_display_flush(display)
    Glibc.close(ends[1])
    guard flushed >= 0 else {
      throw ProbeError("wl_display_flush: \(String(cString: strerror(errno)))")
    }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      var entry = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
      guard poll(&entry, 1, milliseconds(until: deadline)) > 0 else {
        throw ProbeError("the offer sent nothing in time")
      }
      let count = buffer.withUnsafeMutableBytes { Glibc.read(ends[0], $0.baseAddress, $0.count) }
      if count == 0 { break }
      if count < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        throw ProbeError("read: \(String(cString: strerror(errno)))")
      }
      bytes += buffer[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// `wl_display_sync`, dispatched until its `done`.
  private func roundtrip(until deadline: ContinuousClock.Instant) throws {
    synced = false
    let callback = wl_display_sync(display)
    wl_callback_add_listener(callback, callbackListener, context)
    try dispatch(until: deadline) { synced }
  }

  /// The race-free reading loop of libwayland's documentation (wl_display_prepare_read),
  /// with poll(2) bounded by `deadline`, until `condition` holds.
  private func dispatch(until deadline: ContinuousClock.Instant, _ condition: () -> Bool) throws {
    let descriptor = wl_display_get_fd(display)
    while !condition() {
      while wl_display_prepare_read(display) != 0 {
        guard wl_display_dispatch_pending(display) >= 0 else { throw displayError() }
      }
      if condition() {
        wl_display_cancel_read(display)
        return
      }
      _ = wl_display_flush(display)
      var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let ready = poll(&entry, 1, milliseconds(until: deadline))
      if ready > 0 {
        guard wl_display_read_events(display) >= 0 else { throw displayError() }
      } else {
        wl_display_cancel_read(display)
        if ready == 0 { throw ProbeError("the compositor did not answer in time") }
      }
      guard wl_display_dispatch_pending(display) >= 0 else { throw displayError() }
    }
  }

  private func displayError() -> ProbeError {
    ProbeError("the display failed: error \(wl_display_get_error(display))")
  }

  private func milliseconds(until deadline: ContinuousClock.Instant) -> Int32 {
    let left = ContinuousClock.now.duration(to: deadline)
    guard left > .zero else { return 0 }
    let (seconds, attoseconds) = left.components
    return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
  }

  private func close() {
    for offer in offers.keys { zwlr_data_control_offer_v1_destroy(offer) }
    if let device { zwlr_data_control_device_v1_destroy(device) }
    if let manager { zwlr_data_control_manager_v1_destroy(manager) }
    if let seat { wl_seat_destroy(seat) }
    if let registry { wl_registry_destroy(registry) }
    wl_display_disconnect(display)
    registryListener.deallocate()
    seatListener.deallocate()
    deviceListener.deallocate()
    offerListener.deallocate()
    callbackListener.deallocate()
  }
}

/// The probe of a listener's `data`.
private func probeOf(_ data: UnsafeMutableRawPointer) -> DataControlProbe {
  Unmanaged<DataControlProbe>.fromOpaque(data).takeUnretainedValue()
}

struct ProbeError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
