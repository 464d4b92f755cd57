import Foundation
import Testing

/// The shape `docs/architecture.md` gives the runtime: a core small enough to hold in one's
/// head, the one module that touches raw JavaScriptCore, and extensions that reach it through
/// its extension API without depending on one another.
@Suite struct CoreLayoutTests {
  /// The repository's root folder (this file is `Tests/NBridgeRuntimeTests/CoreLayoutTests.swift`).
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

  /// The modules that register with the core as extensions.
  static let extensions = [
    "NBridgeModules", "NBridgeLifecycle", "NBridgeConsole", "NBridgeLog", "NBridgeWatchdog", "NBridgeCompat",
    "NBridgeControl", "NBridgeTestRunner", "NBridgeWeb",
  ]

  /// The files under `folder` (relative to the root) whose names end in one of `suffixes`, with their text.
  static func files(under folder: String, endingIn suffixes: [String]) throws -> [(path: String, text: String)] {
    let base = root + "/" + folder
    let paths = FileManager.default.enumerator(atPath: base)?.compactMap { $0 as? String } ?? []
    return try paths.filter { path in suffixes.contains { path.hasSuffix($0) } }.sorted().map { path in
      (folder + "/" + path, try String(contentsOfFile: base + "/" + path, encoding: .utf8))
    }
  }

  /// The modules a Swift file imports.
  static func imports(_ text: String) -> [String] {
    text.split(separator: "\n").compactMap { line in
      line.hasPrefix("import ") ? String(line.dropFirst("import ".count).split(separator: " ")[0]) : nil
    }
  }

  @Test func theCoreIsAtMostFourThousandLinesOfSwiftAndJS() throws {
    let files = try Self.files(under: "Sources/NBridgeRuntime", endingIn: [".swift", ".js"])
    #expect(files.count > 30)
    // Lines as `wc -l` counts them: line feeds.
    let lines = files.reduce(0) { $0 + $1.text.utf8.count { $0 == 0x0A } }
    #expect(lines <= 4_000, "Sources/NBridgeRuntime holds \(lines) lines of Swift and JS")
  }

  @Test func onlyTheCoreImportsJavaScriptCore() throws {
    var importers: [String] = []
    for folder in ["Sources", "Plugins"] {
      for file in try Self.files(under: folder, endingIn: [".swift"]) where Self.imports(file.text).contains("CJavaScriptCore") {
        importers.append(file.path)
      }
    }
    #expect(!importers.isEmpty)
    #expect(importers.filter { !$0.hasPrefix("Sources/NBridgeRuntime/") } == [])
  }

  @Test func noExtensionImportsAnother() throws {
    for module in Self.extensions {
      let files = try Self.files(under: "Sources/" + module, endingIn: [".swift"])
      #expect(!files.isEmpty, "no Swift file in Sources/\(module)")
      for file in files {
        let others = Self.imports(file.text).filter { Self.extensions.contains($0) && $0 != module }
        #expect(others == [], "\(file.path) imports \(others)")
      }
    }
  }
}
