// A test process in miniature, for the tests of `ProcessKeeper`: starts what tests start
// (a private Xvfb, an X peer on it, a shell with a child of its own, a detached `pbcopy`
// server, a `ferry daemon`), says `started`, then waits to be killed. Whatever kills it,
// nothing it started may outlive it.
//
//     KeeperProbe PBCOPY FERRY
import FerryTestSupport
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
  FileHandle.standardError.write(Data("usage: KeeperProbe PBCOPY FERRY\n".utf8))
  exit(2)
}
let xvfb = try XvfbServer.dedicated("probe")
_ = try PeerProcess(
  ["xclip", "-i", "-quiet", "-selection", "primary"], display: xvfb.name, input: Data("kept".utf8))
_ = try PeerProcess(["sh", "-c", "sleep 600 & exec sleep 601"], display: nil)
// No broker yet: pbcopy leaves a detached server owning CLIPBOARD.
let copied = try PeerProcess.run([arguments[1]], display: xvfb.name, input: Data("probe".utf8))
_ = try PeerProcess([arguments[2], "daemon"], display: xvfb.name)
FileHandle.standardOutput.write(Data("started \(copied.status)\n".utf8))
while true { sleep(60) }
