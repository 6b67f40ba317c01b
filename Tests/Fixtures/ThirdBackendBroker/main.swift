import DisplayServers
import FerryBroker
import Foundation
import SelectionBackendCore
import SelectionBackendEmbedded

// `ferry daemon` with a third display server: the standard table and one more row, the
// embedded backend, named by `FERRY_EMBEDDED_DISPLAY`. Nothing else of the broker, its status
// or `ferry` knows of it (`ThirdBackendTests`).
let embedded = DisplayServerKind(
  name: "Embedded", environmentVariable: "FERRY_EMBEDDED_DISPLAY", protocolName: "in-process"
) { _, _ in EmbeddedSelectionBackend(clock: ContinuousClock()) }

BrokerDaemon.prepareProcess()
let configuration = BrokerDaemon.Configuration(
  environment: ProcessInfo.processInfo.environment,
  displayServers: DisplayServerTable.standard + [embedded])
let done = DispatchSemaphore(value: 0)
Task.detached {
  do {
    _ = try await BrokerDaemon.run(configuration)
  } catch {
    FileHandle.standardError.write(Data("ThirdBackendBroker: \(error)\n".utf8))
    exit(1)
  }
  done.signal()
}
done.wait()
