import CWaylandDataControl
import FoundationEssentials
import SelectionBackend

/// The listener tables of a ``WaylandConnection``, allocated for its lifetime, every slot
/// filled. The callbacks capture nothing: each finds its connection through `data`.
final class WaylandListeners: @unchecked Sendable {
  let registry = UnsafeMutablePointer<wl_registry_listener>.allocate(capacity: 1)
  let seat = UnsafeMutablePointer<wl_seat_listener>.allocate(capacity: 1)
  let device = UnsafeMutablePointer<zwlr_data_control_device_v1_listener>.allocate(capacity: 1)
  let offer = UnsafeMutablePointer<zwlr_data_control_offer_v1_listener>.allocate(capacity: 1)
  let source = UnsafeMutablePointer<zwlr_data_control_source_v1_listener>.allocate(capacity: 1)
  let callback = UnsafeMutablePointer<wl_callback_listener>.allocate(capacity: 1)
  /// The `done` of a ``WaylandConnection/sync()``: resumes its waiter.
  let syncCallback = UnsafeMutablePointer<wl_callback_listener>.allocate(capacity: 1)

  init() {
    registry.initialize(
      to: wl_registry_listener(
        global: { data, _, name, interface, version in
          guard let data, let interface else { return }
          connection(data).bindGlobal(name: name, interface: String(cString: interface), version: version)
        },
        global_remove: { _, _, _ in }))
    seat.initialize(to: wl_seat_listener(capabilities: { _, _, _ in }, name: { _, _, _ in }))
    device.initialize(
      to: zwlr_data_control_device_v1_listener(
        data_offer: { data, _, offer in
          guard let data, let offer else { return }
          connection(data).introduce(UnsafeMutableRawPointer(offer))
        },
        selection: { data, _, offer in
          guard let data else { return }
          connection(data).state.select(.clipboard, offer.map(UnsafeMutableRawPointer.init))
        },
        finished: { data, _ in
          guard let data else { return }
          connection(data).deviceFinished()
        },
        primary_selection: { data, _, offer in
          guard let data else { return }
          connection(data).state.select(.primary, offer.map(UnsafeMutableRawPointer.init))
        }))
    offer.initialize(
      to: zwlr_data_control_offer_v1_listener(
        offer: { data, offer, type in
          guard let data, let offer, let type else { return }
          connection(data).state.offers[UnsafeMutableRawPointer(offer), default: []].append(String(cString: type))
        }))
    source.initialize(
      to: zwlr_data_control_source_v1_listener(
        send: { data, source, type, descriptor in
          guard let data, let source, let type else { return }
          connection(data).serve(UnsafeMutableRawPointer(source), String(cString: type), descriptor)
        },
        cancelled: { data, source in
          guard let data, let source else { return }
          connection(data).cancelled(UnsafeMutableRawPointer(source))
        }))
    callback.initialize(
      to: wl_callback_listener(
        done: { data, callback, _ in
          wl_callback_destroy(callback)
          data?.assumingMemoryBound(to: Bool.self).pointee = true
        }))
    syncCallback.initialize(
      to: wl_callback_listener(
        done: { data, callback, _ in
          wl_callback_destroy(callback)
          guard let data else { return }
          Unmanaged<SyncWaiter>.fromOpaque(data).takeRetainedValue().resume()
        }))
  }

  deinit {
    for pointer in [
      UnsafeMutableRawPointer(registry), UnsafeMutableRawPointer(seat), UnsafeMutableRawPointer(device),
      UnsafeMutableRawPointer(offer), UnsafeMutableRawPointer(source), UnsafeMutableRawPointer(callback),
      UnsafeMutableRawPointer(syncCallback),
    ] {
      pointer.deallocate()
    }
  }
}

/// The connection of a listener's `data`.
private func connection(_ data: UnsafeMutableRawPointer) -> WaylandConnection {
  Unmanaged<WaylandConnection>.fromOpaque(data).takeUnretainedValue()
}

/// A task waiting for the compositor to have handled every request sent before its sync.
final class SyncWaiter: @unchecked Sendable {
  private let continuation: CheckedContinuation<Void, Never>

  init(_ continuation: CheckedContinuation<Void, Never>) {
    self.continuation = continuation
  }

  func resume() { continuation.resume() }
}
