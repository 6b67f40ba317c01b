import FerrySystem
import FoundationEssentials
import SelectionBackend

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension WaylandConnection {
  /// Handles one event, by what its object is and its opcode.
  func handle(_ event: inout WaylandWire.Event) {
    if event.object == WaylandWire.display {
      switch event.opcode {
      case 0:  // error(object, code, message)
        let object = event.uint()
        let code = event.uint()
        state.protocolError = "error \(code) on object \(object): \(event.string() ?? "")"
      case 1:  // delete_id(id)
        let id = event.uint()
        state.objects.removeValue(forKey: id)
        wire.release(id)
      default: break
      }
      return
    }
    switch (state.objects[event.object], event.opcode) {
    case (.registry?, 0):  // global(name, interface, version)
      let name = event.uint()
      let interface = event.string() ?? ""
      bindGlobal(name: name, interface: interface, version: event.uint())
    case (.setupCallback?, 0):
      state.setupDone = true
    case (.syncCallback?, 0):
      state.syncWaiters.removeValue(forKey: event.object)?.resume()
    case (.device?, 0):  // data_offer(new id)
      let offer = event.uint()
      state.objects[offer] = .offer
      state.offers[offer] = []
    case (.device?, 1):  // selection(offer or null)
      let offer = event.uint()
      state.select(.clipboard, offer == 0 ? nil : offer, on: wire)
    case (.device?, 2):  // finished: the device is no longer valid (the seat went)
      state.lost = true
      state.lostHandlers.forEach { $0() }
    case (.device?, 3):  // primary_selection(offer or null)
      let offer = event.uint()
      state.select(.primary, offer == 0 ? nil : offer, on: wire)
    case (.offer?, 0):  // offer(mime type)
      if let type = event.string() { state.offers[event.object, default: []].append(type) }
    case (.source?, 0):  // send(mime type, fd)
      let type = event.string() ?? ""
      if let descriptor = event.descriptor() { serve(event.object, type, descriptor) }
    case (.source?, 1):  // cancelled
      cancelled(event.object)
    default:
      break  // the seat's capabilities and name, a global gone: nothing Ferry needs
    }
  }

  /// The registry announced a global: the seat and the data-control manager are bound,
  /// `ext-data-control-v1` in preference to wlr's.
  private func bindGlobal(name: UInt32, interface: String, version: UInt32) {
    func bind(_ kind: WaylandState.Kind, at bound: UInt32) -> UInt32 {
      let id = wire.newID()
      state.objects[id] = kind
      // wl_registry.bind(name, new_id of any interface: its name, its version, the id)
      wire.send(
        state.registry ?? 0, 0, [.uint(name), .string(interface), .uint(bound), .newID(id)])
      return id
    }
    switch interface {
    case "wl_seat" where state.seat == nil:
      state.seat = bind(.seat, at: 1)
    case "ext_data_control_manager_v1" where !state.isExt:
      if let wlr = state.manager { wire.send(wlr, 2) }  // ext replaces a wlr manager bound first
      state.manager = bind(.manager, at: 1)
      state.isExt = true
      state.managerVersion = 1
    case "zwlr_data_control_manager_v1" where state.manager == nil:
      // As wl-clipboard: the newest version both sides know, at most 2 (PRIMARY).
      let bound = min(version, 2)
      state.manager = bind(.manager, at: bound)
      state.managerVersion = bound
    default:
      break
    }
  }

  /// A reader asks one of Ferry's sources for `type`: the bytes are produced and written on
  /// threads of their own, never here (the reader may be this very process).
  private func serve(_ source: UInt32, _ type: String, _ descriptor: Int32) {
    let output = FileDescriptor(rawValue: descriptor)
    guard let own = state.sources[source] else { return (try? output.close()) ?? () }
    // Bytes at hand go into the pipe at once, without blocking: a short copy (what a pipe
    // holds, 64 KiB) is served here and now; the rest of a longer one goes on a thread.
    var rest: Data?
    if let ready = own.table.readyPayload(type, of: own.item) {
      guard let written = PipeTransfer.writeNow(ready.prefix(1 << 16), to: output),
        written < ready.count
      else { return (try? output.close()) ?? () }
      rest = ready.dropFirst(written)
    }
    let stepTimeout = servingStepTimeout
    Task(executorPreference: ProductionExecutor.shared) { [rest] in
      let data: Data?
      if let rest { data = rest } else { data = await own.table.payload(type, of: own.item) }
      guard let data else { return (try? output.close()) ?? () }
      _ = try? await DetachedThread.run(name: "ferry-wl-send") {
        PipeTransfer.writeAll(data, to: output, stepTimeout: stepTimeout)
      }
    }
  }

  /// One of Ferry's sources was replaced: it is destroyed, and its owner told when another
  /// client took the selection.
  private func cancelled(_ source: UInt32) {
    guard let own = state.sources.removeValue(forKey: source) else { return }
    wire.send(source, 1)  // destroy
    if state.ownSource[own.role] == source {
      state.ownSource[own.role] = nil
      own.onLost()
    }
  }
}
