import Foundation
import NBridgeFS
import NBridgeTesting
import Testing

/// The scope through the real `nbridge run`: links and `..` that lead out are refused and leave
/// what is outside as it was, a pick lasts across launches until `fs.forget`, and the manifest's
/// `fs.scope` reaches the user's folders through its variables.
@Suite struct ScopeProcessTests {
  @Test func linksAndDotDotLeadingOutAreRefusedAndTouchNothing() throws {
    let app = try FilesApp()
    let manager = FileManager.default
    try "secret".write(toFile: app.outside + "/secret.txt", atomically: false, encoding: .utf8)
    try manager.createDirectory(atPath: app.outside + "/dir", withIntermediateDirectories: false)
    try "real".write(toFile: app.files + "/real.txt", atomically: false, encoding: .utf8)
    try manager.createSymbolicLink(atPath: app.files + "/escape", withDestinationPath: app.outside)
    try manager.createSymbolicLink(atPath: app.files + "/secret-link", withDestinationPath: app.outside + "/secret.txt")
    try manager.createSymbolicLink(atPath: app.files + "/inner-link", withDestinationPath: "real.txt")
    let outsideBefore = try manager.contentsOfDirectory(atPath: app.outside).sorted()

    let r = try app.run(
      """
      const { data } = await fs.paths();
      await attempt('read-link', fs.readTextFile({ path: data + '/secret-link' }));
      await attempt('write-link', fs.writeTextFile({ path: data + '/secret-link', contents: 'x' }));
      await attempt('append-link', fs.appendFile({ path: data + '/secret-link', contents: 'x' }));
      await attempt('write-through', fs.writeTextFile({ path: data + '/escape/new.txt', contents: 'x' }));
      await attempt('mkdir-through', fs.mkdir({ path: data + '/escape/sub/deeper', recursive: true }));
      await attempt('remove-through', fs.remove({ path: data + '/escape/secret.txt' }));
      await attempt('remove-dir-through', fs.remove({ path: data + '/escape/dir', recursive: true }));
      await attempt('rename-out', fs.rename({ from: data + '/real.txt', to: data + '/escape/moved.txt' }));
      await attempt('rename-in', fs.rename({ from: data + '/escape/secret.txt', to: data + '/stolen.txt' }));
      await attempt('copy-in', fs.copyFile({ from: data + '/secret-link', to: data + '/stolen.txt' }));
      await attempt('dotdot', fs.readTextFile({ path: data + '/../../outside/secret.txt' }));
      await attempt('list-through', fs.readDir({ path: data + '/escape' }));
      await attempt('stat-through', fs.stat({ path: data + '/escape/secret.txt' }));
      await attempt('exists-through', fs.exists({ path: data + '/escape/secret.txt' }));
      await attempt('watch-through', fs.watch({ path: data + '/escape', retainCallback: () => {} }));
      await attempt('inner-link', fs.readTextFile({ path: data + '/inner-link' }));
      await attempt('remove-link-itself', fs.remove({ path: data + '/escape' }));
      """)
    #expect(r.status == 0, "\(r.stderr)")
    let lines = r.stdout.split(separator: "\n").map(String.init)
    let refused = [
      "read-link", "write-link", "append-link", "write-through", "mkdir-through", "remove-through",
      "remove-dir-through", "rename-out", "rename-in", "copy-in", "dotdot", "list-through", "stat-through",
      "exists-through", "watch-through",
    ]
    for label in refused {
      let line = lines.first { $0.hasPrefix(label + " ") } ?? "\(label): no line"
      #expect(line.contains(" permission_denied "), "\(line)")
      #expect(line.contains("is outside the app's file scope"), "\(line)")
    }
    #expect(lines.contains("inner-link ok \"real\""), "\(r.stdout)")
    #expect(lines.contains("remove-link-itself ok null"), "\(r.stdout)")
    // Nothing outside changed; nothing was copied or moved in.
    #expect(try String(contentsOfFile: app.outside + "/secret.txt", encoding: .utf8) == "secret")
    #expect(try manager.contentsOfDirectory(atPath: app.outside).sorted() == outsideBefore)
    #expect(!manager.fileExists(atPath: app.files + "/stolen.txt"))
    #expect(try String(contentsOfFile: app.files + "/real.txt", encoding: .utf8) == "real")
  }

  @Test func aLinkLongerThanAKibibyteIsFollowedInsideAndRefusedOutside() throws {
    let app = try FilesApp()
    let manager = FileManager.default
    try "secret".write(toFile: app.outside + "/secret.txt", atomically: false, encoding: .utf8)
    try "real".write(toFile: app.files + "/real.txt", atomically: false, encoding: .utf8)
    // Texts of 1,208 and more bytes: past the first buffer a link is read into.
    let padding = String(repeating: "./", count: 600)
    try manager.createSymbolicLink(atPath: app.files + "/long-inner", withDestinationPath: padding + "real.txt")
    try manager.createSymbolicLink(
      atPath: app.files + "/long-outer", withDestinationPath: "/" + padding + app.outside.dropFirst() + "/secret.txt")

    let r = try app.run(
      """
      const { data } = await fs.paths();
      await attempt('long-inner', fs.readTextFile({ path: data + '/long-inner' }));
      await attempt('long-outer', fs.readTextFile({ path: data + '/long-outer' }));
      """)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("long-inner ok \"real\""), "\(r.stdout)")
    #expect(r.stdout.contains("long-outer permission_denied "), "\(r.stdout)")
  }

  @Test func aPickIsReadableInTheNextLaunchUntilForgotten() throws {
    let app = try FilesApp()
    let picked = app.outside + "/picked.txt"
    try "chosen".write(toFile: picked, atomically: false, encoding: .utf8)
    let read = "await attempt('read', fs.readTextFile({ path: \(String(reflecting: picked)) }));"

    let before = try app.run(read)
    #expect(before.stdout.contains("read permission_denied "), "\(before.stdout)\(before.stderr)")
    // What the dialog plugin calls when the user picks the file.
    try FileGrants(dataDirectory: app.data).record(picked, folder: false)
    let next = try app.run(read)
    #expect(next.stdout.contains("read ok \"chosen\""), "\(next.stdout)\(next.stderr)")
    let forgetting = try app.run(
      "await attempt('forget', fs.forget({ path: \(String(reflecting: picked)) }));\n" + read)
    #expect(forgetting.stdout.contains("forget ok {\"count\":1}"), "\(forgetting.stdout)")
    #expect(forgetting.stdout.contains("read permission_denied "), "\(forgetting.stdout)")
    let after = try app.run(read)
    #expect(after.stdout.contains("read permission_denied "), "\(after.stdout)")
  }

  @Test func manifestScopeReachesTheUsersFoldersThroughVariables() throws {
    let app = try FilesApp(
      manifest: #"{"id": "org.example.files", "permissions": ["fs"], "fs": {"scope": ["$DOCUMENTS/Notes"]}}"#)
    let home = app.folder.file("home")
    try app.folder.write("config/user-dirs.dirs", "XDG_DOCUMENTS_DIR=\"$HOME/Docs\"\n")
    try FileManager.default.createDirectory(atPath: home + "/Docs/Notes", withIntermediateDirectories: true)
    try "note".write(toFile: home + "/Docs/Notes/a.txt", atomically: false, encoding: .utf8)
    try "private".write(toFile: home + "/Docs/b.txt", atomically: false, encoding: .utf8)
    let r = try app.run(
      """
      await attempt('note', fs.readTextFile({ path: '\(home)/Docs/Notes/a.txt' }));
      await attempt('write', fs.writeTextFile({ path: '\(home)/Docs/Notes/new.txt', contents: 'new' }));
      await attempt('beside', fs.readTextFile({ path: '\(home)/Docs/b.txt' }));
      """)
    #expect(r.stdout.contains("note ok \"note\""), "\(r.stdout)\(r.stderr)")
    #expect(r.stdout.contains("write ok null"), "\(r.stdout)")
    #expect(
      r.stdout.contains("beside permission_denied fs.readTextFile: \"\(home)/Docs/b.txt\" is outside"), "\(r.stdout)")
    #expect(try String(contentsOfFile: home + "/Docs/Notes/new.txt", encoding: .utf8) == "new")
  }

  @Test(arguments: [
    (#"{"scope": ["Documents/x"]}"#, #"fs.scope[0] must be an absolute path or start with one of $HOME"#),
    (#"{"scope": ["$NOPE/x"]}"#, #"fs.scope[0] must be an absolute path"#),
    (#"{"scope": ["/a", "$HOME/../etc"]}"#, #"fs.scope[1] must not contain '.' or '..' components"#),
    (#"{"scope": [3]}"#, #"fs.scope[0] must be a path string, got 3"#),
    (#"{"scope": "/a"}"#, #"field "fs.scope" must be an array"#),
    (#"{"scop": []}"#, #"unknown field "fs.scop""#),
  ])
  func aBadScopeIsAUsageErrorNamingTheField(fs: String, message: String) throws {
    let app = try FilesApp(manifest: #"{"id": "org.example.files", "permissions": ["fs"], "fs": \#(fs)}"#)
    let r = try app.run("console.log('ran');")
    #expect(r.status == 2, "\(r.stdout)\(r.stderr)")
    #expect(r.stderr.contains(message), "\(r.stderr)")
    #expect(!r.stdout.contains("ran"))
  }
}
