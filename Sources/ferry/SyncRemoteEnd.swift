import FerryBroker
import FerryClient
import FerryCommandLine
import FerryProtocol
import FerrySync
import FerrySystem

#if canImport(Glibc)
  import Glibc
#endif

extension Ferry.SyncCommand {
  /// The other end of a link, which ssh runs: frames on standard input and output, relayed to
  /// this machine's broker. Nothing else is ever written to standard output; a failure before
  /// the handshake is an ERROR frame, which the other side shows.
  struct RemoteEnd {
    var socket: String?
    var display: String?

    func run(_ settings: SyncSettings, _ environment: [String: String]) throws -> Never {
      let output = FileDescriptor.standardOutput
      var socket = self.socket
      var display = self.display
      // Under a key's forced command (`restrict,command="ferry sync --stdio"`), what the client
      // asked for is in SSH_ORIGINAL_COMMAND: only `sync --stdio` with --display or --socket.
      if let original = environment["SSH_ORIGINAL_COMMAND"] {
        switch Self.forcedCommandOptions(original) {
        case .success(let options):
          socket = socket ?? options.socket
          display = display ?? options.display
        case .failure(let refusal):
          Self.fail(refusal.message, on: output, status: .usage)
        }
      }
      let choice: SyncBrokerChoice.Choice
      do {
        choice = try SyncBrokerChoice.choose(
          socket: socket, display: display, environment: environment,
          startHeadless: { try Self.startHeadlessBroker(environment) })
      } catch let failure as CommandFailure {
        Self.fail("\(SyncEngine.hostName): \(failure.message)", on: output, status: failure.status)
      }
      let engine = SyncEngine(
        local: BrokerPasteboards(socket: choice.socket), settings: settings,
        brokerName: choice.name, software: "ferry \(BrokerStatus.softwareVersion)")
      do {
        try engine.start { reason in
          reportError("ferry sync", reason)
          Glibc.exit(ExitStatus.noDisplayNoBroker.rawValue)
        }
      } catch {
        Self.fail(
          "\(SyncEngine.hostName): the broker does not answer: \(error)", on: output,
          status: .noDisplayNoBroker)
      }
      let channel = FramedChannel(input: .standardInput, output: output)
      do {
        try engine.run(channel, record: SyncLinkRecord(host: "(incoming)"), initiator: false)
      } catch {
        reportError("ferry sync", "\(error)")
        Glibc.exit(ExitStatus.remote.rawValue)
      }
      Glibc.exit(0)
    }

    /// The options a forced command's client asked for, or the refusal.
    static func forcedCommandOptions(_ original: String) -> Result<
      (socket: String?, display: String?), CommandFailure
    > {
      let words = original.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
      guard let sync = words.firstIndex(of: "sync"), words.dropFirst(sync + 1).first == "--stdio"
      else {
        return .failure(
          CommandFailure(
            "this key runs only `ferry sync --stdio`; refused: \(original.prefix(80))",
            status: .usage))
      }
      var options: (socket: String?, display: String?) = (nil, nil)
      var rest = words[(sync + 2)...].makeIterator()
      while let word = rest.next() {
        switch word {
        case "--display": options.display = rest.next()
        case "--socket": options.socket = rest.next()
        case "--primary": continue
        default:
          return .failure(
            CommandFailure(
              "this key runs only `ferry sync --stdio`; refused the option \(word.prefix(40))",
              status: .usage))
        }
      }
      return .success(options)
    }

    /// Says why on the link (an ERROR frame), and on standard error, and exits.
    static func fail(_ message: String, on output: FileDescriptor, status: ExitStatus) -> Never {
      let frame = try? Frame.json(.error, ErrorBody(code: .noBroker, message: message))
      if let frame {
        frame.encoded().withUnsafeBytes { _ = try? output.writeAll(from: $0, waitingForRoom: true) }
      }
      reportError("ferry sync", message)
      Glibc.exit(status.rawValue)
    }

    /// Starts `ferry daemon` with no display, detached from this session.
    static func startHeadlessBroker(_ environment: [String: String]) throws {
      var bare = environment
      for variable in ["FERRY_SOCKET", "DISPLAY", "WAYLAND_DISPLAY", "SSH_ORIGINAL_COMMAND"] {
        bare[variable] = nil
      }
      let executable = "/proc/self/exe"
      do {
        _ = try ChildLaunch(
          path: executable, arguments: ["ferry", "daemon"],
          environment: bare.map { "\($0.key)=\($0.value)" },
          descriptors: [
            .open("/dev/null", as: 0, .readOnly), .open("/dev/null", as: 1, .writeOnly),
            .open("/dev/null", as: 2, .writeOnly), .closeAll(from: 3),
          ],
          group: .ownSession
        ).spawn()
      } catch {
        throw CommandFailure("cannot start a headless broker: \(error)", status: .noDisplayNoBroker)
      }
    }
  }
}
