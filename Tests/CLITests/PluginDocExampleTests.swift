import Foundation
import NBridgeCLI
import NBridgePlugin
import NBridgeRuntime
import NBridgeTesting
import Testing

// The plugin of docs/writing-a-plugin.md's "A plugin", verbatim.

struct GreetOptions: Decodable { var name: String }
struct Greeting: Encodable { var message: String; var count: Int }

@BridgeActor
final class GreeterPlugin: Plugin {
  nonisolated static let definition = PluginDefinition<GreeterPlugin>(
    service: "greeter", summary: "Says hello and counts greetings.",
    actions: [
      Action("hello", result: .fields(["message": .string, "count": .integer])) {
        (plugin, options: GreetOptions, _) in
        guard !options.name.isEmpty else { throw BridgeError.invalidParameter("name", "must not be empty") }
        plugin.count += 1
        return Greeting(message: "Hello, \(options.name)!", count: plugin.count)
      }
    ])

  var count = 0
  init(context: PluginContext) {}
}

@Suite(.onTestThreads) struct PluginDocExampleTests {
  static let here = URL(fileURLWithPath: #filePath)
  static let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The first Swift block after `heading` in the file at `path` (relative to the repository),
  /// its `import` lines left out.
  static func swiftBlock(in path: String, after heading: String) throws -> String {
    let page = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    let section = try #require(page.range(of: heading), "\(path): no \(heading)")
    let start = try #require(page.range(of: "```swift\n", range: section.upperBound..<page.endIndex))
    let end = try #require(page.range(of: "\n```", range: start.upperBound..<page.endIndex))
    return page[start.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
      .filter { !$0.hasPrefix("import ") }.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// The plugin above is the first Swift block of docs/writing-a-plugin.md's "A plugin", line for
  /// line (its `import` aside), and of the DocC catalog's overview of NBridgePlugin.
  @Test(arguments: [
    ("docs/writing-a-plugin.md", "\n## A plugin\n"),
    ("Sources/NBridgePlugin/NBridgePlugin.docc/NBridgePlugin.md", "\n## Overview\n"),
  ])
  func thePluginAboveIsTheDocsBlock(path: String, heading: String) throws {
    let block = try Self.swiftBlock(in: path, after: heading)
    let source = try String(contentsOf: Self.here, encoding: .utf8)
    #expect(source.contains(block), "\(path)'s plugin block differs from this file's copy")
  }

  @Test func theDocsPluginAnswersFromJS() async throws {
    let value = try await NBridgeTest.evaluate(
      """
      await nbridge.greeter.hello({ name: 'Ada' });
      const second = await nbridge.greeter.hello({ name: 'Grace' });
      let code;
      try { await nbridge.greeter.hello({ name: '' }); } catch (e) { code = e.code + ' ' + e.message; }
      return [second.message, second.count, code];
      """, plugins: [GreeterPlugin.self])
    #expect(value == ["Hello, Grace!", 2, "invalid_parameter greeter.hello: \"name\" must not be empty"])
  }

  @Test func theDocsPluginAppearsInTypesAndCatalogue() {
    let registry = PluginRegistry([GreeterPlugin.self])
    let dts = TypeScriptDeclarations.generate(registry)
    #expect(dts.contains("hello(options: { name: string }): Promise<{ message: string; count: number }>;"))
    #expect(dts.contains("greeter: NBridgeGreeterService;"))
    #expect(PluginCatalog.text(registry).contains("greeter  (permission: greeter)"))
  }
}
