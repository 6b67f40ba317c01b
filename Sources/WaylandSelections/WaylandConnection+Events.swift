import FerrySystem
import FoundationEssentials
import SelectionBackendCore

extension WaylandConnection {
  /// Handles every whole event that has arrived.
  ///
  /// - Throws: ``WaylandProtocolError`` for the first event that breaks the protocol.
  func dispatchEvents() throws(WaylandProtocolError) {
    let state = self.state
    while let message = try wire.nextMessage(interfaceOf: { state.interface(of: $0) }) {
      try handle(message)
    }
  }

  /// Handles one event, by what its object is and what it says.
  ///
  /// - Throws: ``WaylandProtocolError`` for an event that makes no sense here: an id deleted
  ///   that this client never made, an offer made twice or past the limit of live offers.
  func handle(_ message: WaylandMessage) throws(WaylandProtocolError) {
    switch message.event {
    case .error(let object, let code, let text):
      state.protocolError = "error \(code) on object \(object): \(text)"
    case .deleteID(let id):
      guard id != WaylandWire.display, id < WaylandEventDecoder.firstServerID,
        state.objects.removeValue(forKey: id) != nil
      else {
        throw WaylandProtocolError(
          at: message.offset, "delete_id names object \(id), which this client has no use of")
      }
      wire.release(id)
    case .global(let name, let interface, let version):
      bindGlobal(name: name, interface: interface, version: version)
    case .done:
      if state.objects[message.object] == .setupCallback {
        state.setupDone = true
      } else {
        state.syncWaiters.removeValue(forKey: message.object)?.resume()
      }
    case .dataOffer(let offer):
      try state.announceOffer(offer, at: message.offset)
    case .selection(let offer):
      state.select(.clipboard, offer, on: wire)
    case .finished:  // the device is no longer valid (the seat went)
      lose("the Wayland compositor ended Ferry's data device (finished)")
    case .primarySelection(let offer):
      state.select(.primary, offer, on: wire)
    case .offer(let type):
      state.addType(type, to: message.object)
    case .send(let type, let descriptor):
      serve(message.object, type, descriptor)
    case .cancelled:
      cancelled(message.object)
    case .globalRemove, .seat:
      break  // a global gone, the seat's capabilities and name: nothing Ferry needs
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
        state.registry ?? 0, WaylandRegistryRequest.bind,
        [.uint(name), .string(interface), .uint(bound), .newID(id)])
      return id
    }
    switch interface {
    case "wl_seat" where state.seat == nil:
      state.seat = bind(.seat, at: 1)
    case "ext_data_control_manager_v1" where !state.isExt:
      // ext replaces a wlr manager bound first
      if let wlr = state.manager { wire.send(wlr, DataControlManagerRequest.destroy) }
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
    wire.send(source, DataControlSourceRequest.destroy)
    if state.ownSource[own.role] == source {
      state.ownSource[own.role] = nil
      own.onLost()
    }
  }
}
