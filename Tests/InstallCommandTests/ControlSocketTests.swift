import Foundation
import NBridgeControl
import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem
import NBridgeTesting
import Testing

/// The control socket of `nbridge run`: where it is, who may use it, who owns it, and that no
/// line sent to it can hurt the app.
@Suite(.onTestThreads) struct ControlSocketTests {
  let dir: TemporaryDirectory
  let env: [String: String?]
  let id = "dev.nbridge.control-test"

  init() throws {
    dir = try TemporaryDirectory(prefix: "nbridge-ctl")
    var env = NBridgeTest.headless
    for name in ["XDG_RUNTIME_DIR", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"] {
      env[name] = dir.file(name.lowercased())
    }
    env["NBRIDGE_DATA_DIR"] = dir.file("data")
    env["NBRIDGE_SHARED_DIR"] = dir.file("shared")
    self.env = env
    try dir.write("app/nbridge.json", #"{"id": "\#(id)", "name": "Control"}"#)
    // Alive until stopped; prints a line once its first turn has run.
    try dir.write("app/index.js", "setInterval(() => {}, 1000); console.log('up');\n")
    try dir.write("app/once.js", "console.log('second run done');\n")
  }

  var folder: String { dir.file("xdg_runtime_dir") + "/nbridge" }
  var socket: String { folder + "/\(id).sock" }

  /// Sends one request to the app's socket (the CLI's client, as `nbridge ps` uses it).
  func send(_ request: JSONValue) throws -> ControlClient.Reply {
    try ControlClient.send(request, toSocket: socket, timeout: 10)
  }

  /// Starts the app and waits until its socket answers `ping`.
  func startApp(_ script: String = "index.js") throws -> ChildProcess {
    let child = try NBridgeTest.start(["run", dir.file("app/" + script)], environment: env)
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
      if let reply = try? send(["op": "ping"]), reply.ok { return child }
      usleep(20_000)
    }
    child.stop()
    throw ChildProcessError.notReady("no ping reply: \(child.stderr)")
  }

  func mode(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? Int) ?? -1
  }

  @Test func pingAnswersWithThePidAndTheModesArePrivate() throws {
    let app = try startApp()
    defer { app.stop() }
    let reply = try send(["id": 7, "op": "ping"])
    #expect(reply.fields["id"] == 7)
    #expect(reply.ok)
    #expect(reply.fields["pid"] == .number(Double(app.pid)))
    #expect(reply.fields["app"] == .string(id))
    #expect(reply.peer.pid == app.pid)
    #expect(mode(folder) == 0o700)
    #expect(mode(socket) == 0o600)
    app.stop()
    #expect(!FileManager.default.fileExists(atPath: socket), "the socket is removed when the run ends")
  }

  @Test func aStaleSocketIsReplacedAndAWideFolderNarrowed() throws {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    chmod(folder, 0o755)
    // A socket nobody listens on, as a killed run leaves it: made by a process that has ended.
    // (Not by a listener of this process closed at once: a process another test starts in that
    // moment holds a copy of it until its exec, and a connect then finds it listening.)
    let leaving = try ChildProcess.run(
      "/usr/bin/python3", ["-c", "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])", socket])
    #expect(leaving.status == 0, "\(leaving.stderr)")
    #expect(FileManager.default.fileExists(atPath: socket))
    #expect(throws: SystemError.self) { try UnixSocket.connect(to: socket, timeout: 1) }
    let app = try startApp()
    defer { app.stop() }
    #expect(try send(["op": "ping"]).fields["pid"] == .number(Double(app.pid)))
    #expect(mode(folder) == 0o700)
  }

  @Test func aSecondInstanceLeavesTheFirstOwner() throws {
    let first = try startApp()
    defer { first.stop() }
    let second = try NBridgeTest.command(["run", dir.file("app/once.js")], environment: env)
    #expect(second.status == 0)
    #expect(second.stdout == "second run done\n")
    #expect(second.stderr == "")
    #expect(try send(["op": "ping"]).fields["pid"] == .number(Double(first.pid)))
    let ps = try NBridgeTest.command(["ps", "--json"], environment: env)
    #expect(ps.status == 0)
    let rows = try JSONValue(parsing: ps.stdout)
    #expect(rows == [["app": .string(id), "pid": .number(Double(first.pid)), "state": "active"]])
    let text = try NBridgeTest.command(["ps"], environment: env)
    #expect(text.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) } == [
      ["APP", "PID", "STATE"], [id, String(first.pid), "active"],
    ])
  }

  @Test func garbageAndOversizedLinesAreAnsweredAndTheAppLivesOn() throws {
    let app = try startApp()
    defer { app.stop() }
    let fd = try UnixSocket.connect(to: socket, timeout: 10)
    defer { close(fd) }
    var bytes = Array("not json\n[1,2]\n{\"id\":3}\n{\"id\":4,\"op\":\"nope\"}\n".utf8)
    bytes += [0xFF, 0xFE, 0x0A]
    bytes += Array(repeating: UInt8(ascii: "x"), count: 200_000) + [0x0A]
    bytes += Array("{\"id\":9,\"op\":\"ping\"}\n".utf8)
    #expect(UnixSocket.send(fd, bytes))
    var received: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while received.filter({ $0 == 0x0A }).count < 7 {
      guard let n = chunk.withUnsafeMutableBytes({ UnixSocket.receive(fd, into: $0) }), n > 0 else { break }
      received += chunk[0..<n]
    }
    let replies = try String(decoding: received, as: UTF8.self).split(separator: "\n").map { try JSONValue(parsing: String($0)) }
    #expect(replies.map { $0["code"]?.stringValue } == ["malformed", "malformed", "malformed", "unknown_op", "malformed", "too_large", nil])
    #expect(replies.map { $0["id"] } == [nil, nil, 3, 4, nil, nil, 9].map { $0.map { JSONValue.number(Double($0)) } ?? .null })
    #expect(replies.last?["ok"] == true)
    #expect(app.isRunning)
    #expect(try send(["op": "ping"]).ok)
  }

  @Test func anotherUserIsRefused() throws {
    #expect(geteuid() == 0, "this test switches to uid 65534 and needs root")
    let app = try startApp()
    defer { app.stop() }
    // Open the folder and the socket as a careless user might; the peer check still refuses.
    chmod(dir.path, 0o755)
    chmod(dir.file("xdg_runtime_dir"), 0o755)
    chmod(folder, 0o755)
    chmod(socket, 0o666)
    let client = """
      import socket
      s = socket.socket(socket.AF_UNIX)
      s.connect(\(JSONValue.string(socket).jsonText))
      try:
          s.sendall(b'{"id":1,"op":"ping"}\\n')
      except BrokenPipeError:
          pass  # refused before the request was read; the refusal is still there to read
      print(s.recv(4096).decode(), end='')
      """
    let r = try ChildProcess.run(
      "setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", client], timeout: 30)
    #expect(r.status == 0, "\(r.stderr)")
    let reply = try JSONValue(parsing: r.stdout)
    #expect(reply["ok"] == false)
    #expect(reply["code"] == "permission_denied")
    #expect(try send(["op": "ping"]).ok, "the app answers its own user afterwards")
  }
}
