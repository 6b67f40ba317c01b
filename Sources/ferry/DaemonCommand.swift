import ArgumentParser
import FerryBroker
import FerryProtocol
import FerryCommandLine
import Foundation
import Logging

extension Ferry {
  /// `ferry daemon`: the broker.
  struct DaemonCommand: ParsableCommand, AsyncParsableCommandRunner {
    static let configuration = CommandConfiguration(
      commandName: "daemon",
      abstract: "Run the broker: pasteboards, the socket, the X11 bridge and the clipboard manager.",
      discussion: """
        With DISPLAY, the general pasteboard is CLIPBOARD and primary is PRIMARY, and what \
        applications copy survives their exit. Without it, the broker serves the socket only. \
        One broker runs per user and display: a second start says so and exits 0.
        """)

    @Flag(help: "Stop a running broker and take over.")
    var replace = false
    @Flag(help: "Log every transfer.")
    var verbose = false
    @Option(help: ArgumentHelp("The most a new CLIPBOARD owner's data is copied at once, in MiB.", valueName: "MiB"))
    var captureLimit = 64
    @Option(help: ArgumentHelp("The display; $DISPLAY by default.", valueName: "name"))
    var display: String?

    func run() throws { var copy = self; try copy.runBlocking() }

    mutating func runBlocking() throws {
      // Before any thread starts: large blocks freed are given back (docs/PERFORMANCE.md).
      HeapRelease.configure()
      let level: Logger.Level = verbose ? .debug : .info
      LoggingSystem.bootstrap { label in
        var handler = StreamLogHandler.standardError(label: label)
        handler.logLevel = level
        return handler
      }
      var environment = ProcessInfo.processInfo.environment
      if let display { environment["DISPLAY"] = display }
      let configuration = BrokerDaemon.Configuration(
        displayName: environment["DISPLAY"], socket: SocketPath.resolve(environment: environment),
        captureLimit: captureLimit << 20, replace: replace)
      let outcome = LockedBox<Result<BrokerDaemon.Outcome, any Error>?>(nil)
      let done = DispatchSemaphore(value: 0)
      Task {
        do { outcome.set(.success(try await BrokerDaemon.run(configuration))) } catch { outcome.set(.failure(error)) }
        done.signal()
      }
      done.wait()
      switch outcome.get() {
      case .success(.alreadyRunning(let pid)):
        reportError("ferry", "a broker is already running for this display (pid \(pid)); --replace takes over")
      case .success(.stopped), nil:
        break
      case .failure(let error as BrokerDaemonError):
        throw CommandFailure("\(error)", status: .noDisplayNoBroker)
      case .failure(let error):
        throw CommandFailure("\(error)", status: .io)
      }
    }
  }
}
