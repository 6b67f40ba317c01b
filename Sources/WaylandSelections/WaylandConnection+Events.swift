import CWaylandDataControl
import DetachedThreads
import FerrySystem
import FoundationEssentials
import SelectionBackend

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension WaylandConnection {
  /// The registry announced a global: the seat and the data-control manager are bound,
  /// `ext-data-control-v1` in preference to wlr's.
  func bindGlobal(name: UInt32, interface: String, version: UInt32) {
    switch interface {
    case "wl_seat" where state.seat == nil:
      state.seat = OpaquePointer(wl_registry_bind(state.registry, name, ferry_wl_seat_interface(), 1))
      wl_seat_add_listener(state.seat, listeners.seat, context)
    case "ext_data_control_manager_v1" where state.ext == 0:
      if let wlr = state.manager { ferry_dc_destroy_manager(0, UnsafeMutableRawPointer(wlr)) }
      state.manager = OpaquePointer(wl_registry_bind(state.registry, name, ferry_ext_data_control_manager_v1_interface(), 1))
      state.ext = 1
      state.managerVersion = 1
    case "zwlr_data_control_manager_v1" where state.manager == nil:
      // As wl-clipboard: the newest version both sides know, at most 2 (PRIMARY).
      let bound = min(version, 2)
      state.manager = OpaquePointer(
        wl_registry_bind(state.registry, name, ferry_zwlr_data_control_manager_v1_interface(), bound))
      state.managerVersion = bound
    default:
      break
    }
  }

  /// A new offer: its MIME types follow, then the selection event that makes it current.
  func introduce(_ offer: UnsafeMutableRawPointer) {
    state.offers[offer] = []
    _ = ferry_dc_add_offer_listener(offer, listeners.offer, context)
  }

  /// The data device is no longer valid (the seat went): as good as a lost connection.
  func deviceFinished() {
    state.lost = true
    state.lostHandlers.forEach { $0() }
    state.closing = true
  }

  /// A reader asks one of Ferry's sources for `type`: the bytes are produced and written on
  /// threads of their own, never here (the reader may be this very process).
  func serve(_ source: UnsafeMutableRawPointer, _ type: String, _ descriptor: Int32) {
    let output = FileDescriptor(rawValue: descriptor)
    guard let own = state.sources[source] else { return (try? output.close()) ?? () }
    let stepTimeout = servingStepTimeout
    Task(executorPreference: ProductionExecutor.shared) {
      guard let data = await own.table.payload(type, of: own.item) else { return (try? output.close()) ?? () }
      _ = try? await DetachedThread.run(name: "ferry-wl-send") {
        PipeTransfer.writeAll(data, to: output, stepTimeout: stepTimeout)
      }
    }
  }

  /// One of Ferry's sources was replaced: it is destroyed, and its owner told when another
  /// client took the selection.
  func cancelled(_ source: UnsafeMutableRawPointer) {
    guard let own = state.sources.removeValue(forKey: source) else { return }
    ferry_dc_destroy_source(state.ext, source)
    if state.ownSource[own.role] == source {
      state.ownSource[own.role] = nil
      own.onLost()
    }
  }
}
