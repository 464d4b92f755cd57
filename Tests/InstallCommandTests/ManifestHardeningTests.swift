import Foundation
import NBridgeTesting
import Testing

/// `nbridge.json` as a hostile or careless author writes it: something named `nbridge.json` that
/// cannot be read as a manifest, unknown permissions and keys given twice are usage errors (exit 2)
/// that name the problem, never "no manifest" (which allows every service). Issue 31, findings 4 and 16.
@Suite(.onTestThreads) struct ManifestHardeningTests {
  let dir: TemporaryDirectory
  let env: [String: String?]

  init() throws {
    dir = try TemporaryDirectory(prefix: "nbridge-manifest")
    var env = NBridgeTest.headless
    env["NBRIDGE_DATA_DIR"] = dir.file("data")
    env["NBRIDGE_SHARED_DIR"] = dir.file("shared")
    env["HOME"] = dir.path
    self.env = env
    // Would print its storage write when the run went ahead.
    try dir.write("app/index.js", "await nbridge.storage.set({key: 'k', value: 1}); console.log('ran');\n")
  }

  var entry: String { dir.file("app/index.js") }
  var manifest: String { dir.file("app/nbridge.json") }

  /// Runs `nbridge run` on the app; a FIFO manifest must not make it wait.
  func run() throws -> (status: Int32, stdout: String, stderr: String) {
    try NBridgeTest.command(["run", entry], environment: env, timeout: 20)
  }

  /// The run stopped before the script with a usage error naming the manifest and `words`.
  func expectRefused(_ r: (status: Int32, stdout: String, stderr: String), _ words: String...) {
    #expect(r.status == 2, "\(r.stdout)\(r.stderr)")
    #expect(!r.stdout.contains("ran"))
    #expect(r.stderr.contains(manifest), "\(r.stderr)")
    for word in words { #expect(r.stderr.contains(word), "\(r.stderr)") }
    #expect(r.stderr.split(separator: "\n").count == 1, "one line: \(r.stderr)")
  }

  enum Unreadable: String, CaseIterable {
    case folder, fifo, symlinkLoop, devZero, danglingSymlink, tooBig, notUTF8
  }

  @Test(arguments: Unreadable.allCases)
  func aManifestThatCannotBeReadIsAUsageError(_ kind: Unreadable) throws {
    switch kind {
    case .folder:
      try FileManager.default.createDirectory(atPath: manifest, withIntermediateDirectories: false)
    case .fifo:
      #expect(mkfifo(manifest, 0o644) == 0)
    case .symlinkLoop:
      try FileManager.default.createSymbolicLink(atPath: manifest, withDestinationPath: "nbridge.json")
    case .devZero:
      try FileManager.default.createSymbolicLink(atPath: manifest, withDestinationPath: "/dev/zero")
    case .danglingSymlink:
      try FileManager.default.createSymbolicLink(atPath: manifest, withDestinationPath: dir.file("gone.json"))
    case .tooBig:
      try dir.write("app/nbridge.json", #"{"id": "a", "name": ""# + String(repeating: "x", count: 1 << 20) + "\"}")
    case .notUTF8:
      try Data([0x7B, 0x22, 0x69, 0x64, 0x22, 0x3A, 0x22, 0xFF, 0x22, 0x7D]).write(to: URL(fileURLWithPath: manifest))
    }
    let started = Date()
    let r = try run()
    switch kind {
    case .folder: expectRefused(r, "must be a regular file", "folder")
    case .fifo: expectRefused(r, "must be a regular file", "FIFO")
    case .devZero: expectRefused(r, "must be a regular file", "character device")
    case .symlinkLoop: expectRefused(r, "symbolic links")
    case .danglingSymlink: expectRefused(r, "No such file")
    case .tooBig: expectRefused(r, "larger than 1024 KiB")
    case .notUTF8: expectRefused(r, "not UTF-8")
    }
    #expect(Date().timeIntervalSince(started) < 10)
  }

  /// Mode 000 as another user (the tests run as root, whom no mode stops): the run as `nobody`
  /// is refused instead of getting every permission.
  @Test func aManifestAnotherUserCannotReadIsAUsageError() throws {
    try dir.write("app/nbridge.json", #"{"id": "dev.test.locked", "permissions": []}"#)
    #expect(chmod(manifest, 0) == 0)
    for path in [dir.path, dir.file("app")] { #expect(chmod(path, 0o755) == 0) }
    #expect(chmod(entry, 0o644) == 0)
    let setpriv = try #require(
      ["/usr/bin/setpriv", "/bin/setpriv"].first { FileManager.default.isExecutableFile(atPath: $0) })
    // Folders `nobody` may write, so only the manifest can stop the run.
    let writable = dir.file("nobody")
    try FileManager.default.createDirectory(atPath: writable, withIntermediateDirectories: false)
    #expect(chmod(writable, 0o777) == 0)
    var env = self.env
    env["NBRIDGE_DATA_DIR"] = writable + "/data"
    env["NBRIDGE_SHARED_DIR"] = writable + "/shared"
    env["HOME"] = writable
    let r = try ChildProcess.run(
      setpriv, ["--reuid=nobody", "--regid=nogroup", "--clear-groups", NBridgeTest.executable, "run", entry],
      environment: env, timeout: 20)
    expectRefused(r, "cannot read the manifest", "Permission denied")
  }

  @Test func noManifestAtAllStillTakesTheDefaults() throws {
    let r = try run()
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout == "ran\n")
  }

  @Test func nbridgeTestFailsAFileWhoseManifestCannotBeRead() throws {
    try dir.write("app/x.test.js", "test('t', () => {});\n")
    try FileManager.default.createDirectory(atPath: manifest, withIntermediateDirectories: false)
    let r = try NBridgeTest.command(["test", dir.file("app/x.test.js")], environment: env, timeout: 20)
    #expect(r.status == 1)
    #expect(
      r.stdout.contains("not ok 1 - \(dir.file("app/x.test.js")): \(manifest): the manifest must be a regular file"),
      "\(r.stdout)")
  }

  @Test func anUnknownPermissionIsAUsageErrorNamingIt() throws {
    try dir.write("app/nbridge.json", #"{"id": "dev.test.perm", "permissions": ["storage", "notifications"]}"#)
    let r = try run()
    expectRefused(r, #"permissions[1]: unknown permission "notifications""#, "notification,", "network")
    let t = try NBridgeTest.command(["test", entry], environment: env, timeout: 20)
    #expect(t.stdout.contains(#"permissions[1]: unknown permission "notifications""#), "\(t.stdout)")
  }

  @Test(arguments: [
    (#"{"id": "dev.test.a", "id": "dev.test.b"}"#, #""id""#),
    (#"{"id": "dev.test.a", "permissions": [], "permissions": ["storage"]}"#, #""permissions""#),
    (#"{"id": "dev.test.a", "window": {"title": "A", "title": "B"}}"#, #""window.title""#),
  ])
  func aKeyGivenTwiceIsAUsageErrorNamingIt(_ text: String, _ key: String) throws {
    try dir.write("app/nbridge.json", text)
    expectRefused(try run(), "the key \(key) is given twice")
  }

  @Test(arguments: ["name", "version", "build"])
  func aControlCharacterInATextFieldIsAUsageErrorNamingIt(_ field: String) throws {
    try dir.write("app/nbridge.json", #"{"id": "dev.test.ctl", "\#(field)": "a\u001bb"}"#)
    expectRefused(try run(), #"field "\#(field)" must be one line"#, "U+001B")
  }

  /// An id names files: a combining mark (one `Character` with its letter) or a 300-byte id is refused.
  @Test(arguments: ["dev.te\u{0301}st", "dev.test\u{200D}", String(repeating: "a", count: 300), "dev..test"])
  func anIDThatCannotNameAFileIsRefused(_ id: String) throws {
    try dir.write("app/nbridge.json", #"{"id": "\#(id)"}"#)
    expectRefused(try run(), #"field "id""#)
  }

  /// `remote` (issue 33, item 6): https origins only, each permission among the app's, given
  /// once; `pageProtocol` one of its two names. Each is a usage error naming the field.
  @Test(arguments: [
    (#""remote": [{"origin": "http://127.0.0.1:8080", "permissions": []}]"#, #"field "remote[0].origin" must be an https origin"#),
    (#""remote": [{"origin": "https://example.com/app", "permissions": []}]"#, #"field "remote[0].origin""#),
    (#""remote": [{"origin": "https://example.com"}]"#, #"field "remote[0].permissions" must be an array"#),
    (#""remote": [{"origin": "https://example.com", "permissions": [], "paths": []}]"#, #"unknown field "remote[0].paths""#),
    (
      #""remote": [{"origin": "https://a.example", "permissions": []}, {"origin": "https://A.example", "permissions": []}]"#,
      #"field "remote[1].origin": "https://a.example" is listed twice"#
    ),
    (#""remote": [{"origin": "https://example.com", "permissions": ["pasteboard"]}]"#, #"remote[0].permissions[0]: "pasteboard" is not among the app's "permissions""#),
    (#""pageProtocol": "android""#, #"field "pageProtocol" must be "wkbridgekit" or "nbridgekit", got "android""#),
  ])
  func aBadRemoteOrPageProtocolIsAUsageErrorNamingIt(_ field: String, _ words: String) throws {
    try dir.write("app/nbridge.json", #"{"id": "dev.test.remote", "permissions": ["storage"], \#(field)}"#)
    expectRefused(try run(), words)
  }

  @Test func anUnknownRemotePermissionIsRefusedWithoutAppPermissions() throws {
    try dir.write(
      "app/nbridge.json", #"{"id": "dev.test.remote", "remote": [{"origin": "https://example.com", "permissions": ["storage", "clipboard"]}]}"#)
    expectRefused(try run(), #"remote[0].permissions[1]: unknown permission "clipboard""#)
  }
}
