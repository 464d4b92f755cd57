import Foundation
import NBridgeTesting
import Testing

/// What a plugin author sees of `NBridgePlugin`: docs/writing-a-plugin.md lists it, and each declaration is documented.
///
/// `swift-symbolgraph-extract` reads the built module's public symbols (those declared in its
/// sources: not what a protocol's extensions add). A runtime-only type made public again, or a
/// public declaration removed or renamed, fails the comparison with the docs' list.
@Suite(.onTestThreads) struct PublicAPITests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path
  static let page = URL(fileURLWithPath: root + "/docs/writing-a-plugin.md")

  /// A public symbol: its path (`Action.name`), kind (`struct`) and documentation.
  struct Symbol {
    var path: [String]
    var kind: String
    var doc: String
  }

  /// What the extractor needs to load a module that imports the C modules: their module maps
  /// (the system libraries' beside their headers, SwiftPM's for C targets in the build folder)
  /// and the system headers' folders.
  static func clangFlags(buildFolder: String) throws -> [String] {
    var flags: [String] = []
    for top in ["Sources", "Plugins"] {
      let base = root + "/" + top
      for path in FileManager.default.enumerator(atPath: base)?.compactMap({ $0 as? String }) ?? []
      where path.hasSuffix("module.modulemap") {
        flags += ["-I", ((base + "/" + path) as NSString).deletingLastPathComponent]
      }
    }
    for entry in try FileManager.default.contentsOfDirectory(atPath: buildFolder) where entry.hasSuffix(".build") {
      let map = buildFolder + "/" + entry + "/module.modulemap"
      if FileManager.default.fileExists(atPath: map) { flags += ["-Xcc", "-fmodule-map-file=" + map] }
    }
    let headers = try ChildProcess.run("pkg-config", ["--cflags", "javascriptcoregtk-4.1", "gobject-2.0", "sqlite3"])
    for flag in headers.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }) { flags += ["-Xcc", String(flag)] }
    return flags
  }

  static func publicSymbols(of module: String) throws -> [Symbol] {
    let buildFolder = (NBridgeTest.executable as NSString).deletingLastPathComponent
    let modules = buildFolder + "/Modules"
    let output = try TemporaryDirectory(prefix: "nbridge-symbols")
    var machine = utsname()
    uname(&machine)
    let arch = withUnsafeBytes(of: machine.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    let extracted = try ChildProcess.run(
      "swift-symbolgraph-extract",
      [
        "-module-name", module, "-I", modules, "-target", "\(arch)-unknown-linux-gnu", "-minimum-access-level",
        "public", "-skip-synthesized-members", "-output-dir", output.path,
      ] + clangFlags(buildFolder: buildFolder), timeout: 300)
    try #require(extracted.status == 0, "swift-symbolgraph-extract: \(extracted.stderr)")
    let data = try Data(contentsOf: URL(fileURLWithPath: output.file("\(module).symbols.json")))
    let graph = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let symbols = try #require(graph["symbols"] as? [[String: Any]])
    return symbols.compactMap { symbol in
      guard symbol["location"] != nil, symbol["accessLevel"] as? String == "public" else { return nil }
      let kind = ((symbol["kind"] as? [String: Any])?["identifier"] as? String ?? "").replacingOccurrences(of: "swift.", with: "")
      let lines = ((symbol["docComment"] as? [String: Any])?["lines"] as? [[String: Any]]) ?? []
      return Symbol(
        path: symbol["pathComponents"] as? [String] ?? [], kind: kind,
        doc: lines.compactMap { $0["text"] as? String }.joined(separator: " "))
    }
  }

  /// The docs' list: one line per top-level declaration with its members, sorted.
  static func list(_ symbols: [Symbol]) -> String {
    var members: [String: Set<String>] = [:]
    var kinds: [String: String] = [:]
    for symbol in symbols {
      guard let top = symbol.path.first else { continue }
      if symbol.path.count == 1 {
        kinds[top] = symbol.kind
        members[top, default: []].formUnion([])
      } else {
        members[top, default: []].insert(symbol.path.dropFirst().joined(separator: "."))
      }
    }
    return members.keys.sorted().map { name in
      let list = members[name]!.sorted().map { "`\($0)`" }.joined(separator: ", ")
      return "- `\(name)` (\(kinds[name] ?? "?"))" + (list.isEmpty ? "" : ": " + list)
    }.joined(separator: "\n") + "\n"
  }

  @Test func theDocsListExactlyThePublicAPIOfNBridgePlugin() throws {
    let text = try String(contentsOf: Self.page, encoding: .utf8)
    let begin = try #require(text.range(of: "<!-- public-api:begin -->\n"))
    let end = try #require(text.range(of: "<!-- public-api:end -->"))
    let listed = String(text[begin.upperBound..<end.lowerBound])
    let actual = Self.list(try Self.publicSymbols(of: "NBridgePlugin"))
    #expect(listed == actual, "docs/writing-a-plugin.md's list of NBridgePlugin's public API should read:\n\(actual)")
    for runtimeOnly in ["LoopExecutor", "PluginHost", "AnyPlugin", "AnyReply"] {
      #expect(!actual.contains("- `\(runtimeOnly)`"), "\(runtimeOnly) is the runtime's, not the plugin API")
    }
  }

  /// The DocC catalog's landing page files every top-level public declaration under a topic.
  @Test func theDocCCatalogFilesEveryTopLevelDeclaration() throws {
    let catalog = try String(
      contentsOfFile: Self.root + "/Sources/NBridgePlugin/NBridgePlugin.docc/NBridgePlugin.md", encoding: .utf8)
    let topics = try #require(catalog.range(of: "\n## Topics\n"))
    let filed = Set(
      catalog[topics.upperBound...].split(separator: "\n").filter { $0.hasPrefix("- ``") }
        .map { $0.dropFirst(4).dropLast(2) }.map(String.init))
    let topLevel = Set(try Self.publicSymbols(of: "NBridgePlugin").filter { $0.path.count == 1 }.map { $0.path[0] })
    #expect(topLevel.subtracting(filed).isEmpty, "not under a topic: \(topLevel.subtracting(filed).sorted())")
    #expect(filed.subtracting(topLevel).isEmpty, "not public declarations: \(filed.subtracting(topLevel).sorted())")
  }

  /// Every public declaration of the modules plugin authors import says more than its name.
  @Test(arguments: ["NBridgePlugin", "NBridgeCLI", "NBridgeTesting", "NBridgeBuiltins"])
  func everyPublicDeclarationIsDocumented(module: String) throws {
    for symbol in try Self.publicSymbols(of: module) {
      let name = symbol.path.joined(separator: ".")
      let words = symbol.doc.split(whereSeparator: { $0 == " " }).count
      #expect(words >= 3, "\(module): \(name) needs a `///` that says more than its name (has \"\(symbol.doc)\")")
    }
  }
}
