import ArgumentParser
import Dispatch
import FerryBroker
import FerryClient
import FerryCommandLine
import FerryConfiguration
import FerryProtocol
import FerrySync
import FerrySystem

#if canImport(Glibc)
  import Glibc
#endif
#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension Ferry {
  /// `ferry sync`: one clipboard across machines, over the system's ssh (docs/SYNC.md).
  struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "sync",
      abstract: "Keep the clipboard of other machines one with this one's, over ssh.",
      discussion: """
        Runs `ssh -T -o BatchMode=yes HOST ferry sync --stdio` for each HOST (your keys, agent, \
        known_hosts and ssh_config; no port or pairing of Ferry's own) and keeps both \
        brokers' general pasteboard one: every stored representation, in order. Concealed, \
        transient and this-host-only copies never go, nor types in sync.exclude. A lost link \
        is tried again after 1 s, up to every 60 s. `ferry status` shows each link. Set \
        sync.hosts to have `ferry daemon` keep the links.

        --stdio is the other end, which ssh runs; it is not for people. It relays to the \
        broker --socket or --display names, else the only one running, else a headless one \
        it starts.
        """)

    @Argument(help: "The hosts, as ssh names them (user@host, or a Host of ssh_config).")
    var hosts: [String] = []
    @Flag(help: "Push the current copy to each host and exit.")
    var once = false
    @Flag(help: "Check that each host answers (ssh, its ferry, its broker) and exit.")
    var check = false
    @Flag(help: ArgumentHelp(.syncPrimary))
    var primary = false
    @Flag(help: "Send local copies; take none.")
    var sendOnly = false
    @Flag(help: "Take copies; send none.")
    var receiveOnly = false
    @Option(help: ArgumentHelp(.syncMaxSize, valueName: "MiB"))
    var maxSize: Int?
    @Option(
      help: ArgumentHelp(
        "Copies up to this size go at once; larger ones when pulled (MiB).", valueName: "MiB"))
    var eagerSize = 4
    @Option(
      help: ArgumentHelp(
        "The ssh command ($FERRY_SSH, else ssh), as rsync's -e.", valueName: "command"))
    var ssh: String?
    @Option(
      help: ArgumentHelp(
        "The ferry on the other machines (ferry on their PATH).", valueName: "path"))
    var remoteFerry = "ferry"
    @Option(
      help: ArgumentHelp("The display whose broker the other machines relay to.", valueName: "name")
    )
    var remoteDisplay: String?
    @Flag(help: "Copy ssh's messages to standard error.")
    var verbose = false
    @Flag(
      help: ArgumentHelp(
        "Be the other end: frames on standard input and output.", visibility: .hidden))
    var stdio = false
    @Option(
      help: ArgumentHelp("With --stdio: the display whose broker to relay to.", visibility: .hidden)
    )
    var display: String?
    @Option(help: ArgumentHelp("With --stdio: the broker's socket.", visibility: .hidden))
    var socket: String?

    func validate() throws {
      if stdio {
        guard hosts.isEmpty else { throw ValidationError("--stdio takes no host") }
        return
      }
      guard !hosts.isEmpty else {
        throw ValidationError("name at least one host (ferry sync HOST)")
      }
      guard !(once && check) else { throw ValidationError("--once and --check exclude each other") }
      guard !(sendOnly && receiveOnly) else {
        throw ValidationError("--send-only and --receive-only exclude each other")
      }
      guard eagerSize >= 0 else { throw ValidationError("--eager-size is a number of MiB") }
    }

    func run() throws {
      signal(SIGPIPE, SIG_IGN)
      let environment = ProcessInfo.processInfo.environment
      let configuration: EffectiveConfiguration
      do {
        configuration = try EffectiveConfiguration.load(environment: environment)
      } catch {
        throw CommandFailure(error.message, status: .usage)
      }
      var settings = SyncSettings(
        pasteboards: primary || configuration.toggle(.syncPrimary)
          ? ["general", "primary"] : ["general"],
        maximumBytes: (maxSize ?? configuration.number(.syncMaxSize)) << 20,
        eagerBytes: eagerSize << 20, excludedTypes: Set(configuration.names(.syncExclude)))
      if sendOnly { settings.direction = .sendOnly }
      if receiveOnly { settings.direction = .receiveOnly }
      if stdio { try RemoteEnd(socket: socket, display: display).run(settings, environment) }
      try runLinks(settings, environment)
    }

    private func runLinks(_ settings: SyncSettings, _ environment: [String: String]) throws {
      let socket = SocketPath.resolve(environment: environment)
      guard SyncBrokerChoice.answers(socket) else {
        throw CommandFailure(
          "no broker is running at \(socket.path) (start one with `ferry daemon`)",
          status: .noDisplayNoBroker)
      }
      let engine = SyncEngine(
        local: BrokerPasteboards(socket: socket), settings: settings,
        brokerName: String(socket.fileName.dropLast(5)),
        software: "ferry \(BrokerStatus.softwareVersion)")
      do {
        try engine.start { reason in
          reportError("ferry sync", reason)
          Glibc.exit(ExitStatus.noDisplayNoBroker.rawValue)
        }
      } catch {
        throw CommandFailure("the broker does not answer: \(error)", status: .noDisplayNoBroker)
      }
      var remoteArguments: [String] = []
      if let remoteDisplay { remoteArguments += ["--display", remoteDisplay] }
      if settings.pasteboards.contains("primary") { remoteArguments.append("--primary") }
      let sshCommand = ssh ?? environment["FERRY_SSH"].flatMap { $0.isEmpty ? nil : $0 } ?? "ssh"
      let links = hosts.map { host in
        SyncHostLink(
          SSHCommand(
            ssh: sshCommand, host: host, remoteFerry: remoteFerry,
            remoteArguments: remoteArguments),
          engine: engine, echoStandardError: verbose)
      }
      if once || check {
        var failed: ExitStatus?
        for link in links {
          let attempt = link.connect(once: once, check: check)
          if let failure = attempt.failure {
            reportError("ferry sync", "\(link.command.host): \(failure)")
            failed = .remote
            continue
          }
          if check {
            print("\(link.command.host): \(link.record.status.remote ?? "answers")")
            continue
          }
          switch attempt.outcome {
          case .applied: print("\(link.command.host): sent")
          case .keptInHistory:
            print("\(link.command.host): it has a newer copy; this one went to its history")
          case .skipped(let reason):
            reportError("ferry sync", "nothing sent: \(Self.describe(reason))")
            failed = failed ?? .nothingAvailable
          case .declined(let reason):
            reportError("ferry sync", "\(link.command.host) did not take the copy: \(reason)")
            failed = failed ?? .nothingAvailable
          case .empty, nil:
            reportError("ferry sync", "nothing to send: the general pasteboard is empty")
            failed = failed ?? .nothingAvailable
          case .sent:
            reportError("ferry sync", "\(link.command.host): the link ended before an answer")
            failed = .remote
          }
        }
        engine.forget(links.map(\.record))
        // Each failure was told above, host by host: only the status is left to give (an
        // ExitCode thrown to runAsTool would be reported as an I/O failure, status 6, with an
        // empty message).
        if let failed { Glibc.exit(failed.rawValue) }
        return
      }
      for link in links {
        DetachedThread.start(name: "ferry-sync-link") { link.run() }
      }
      while true { Glibc.pause() }
    }

    /// Why a copy is not sent, for people.
    static func describe(_ reason: SyncFilter.Reason) -> String {
      switch reason {
      case .concealed:
        "the copy is concealed (a password); concealed copies never leave this machine"
      case .transient: "the copy is marked transient"
      case .currentHostOnly: "the copy is marked for this host only"
      case .excluded: "the copy has a type named in sync.exclude"
      case .files: "the copy is a file list with no text form"
      case .tooLarge: "the copy is larger than sync.max-size"
      case .duplicate: "the other machine has these bytes already"
      case .unknownType: "the other machine does not know its types"
      }
    }
  }
}

extension SyncEngine {
  /// Takes every record in `records` out of the report.
  func forget(_ records: [SyncLinkRecord]) {
    for record in records { forget(record) }
  }
}
