import Foundation
import NBridgePlugin
import NBridgeRuntime
import NBridgeTesting
import Testing

// The plugin of the README's "Write a plugin", verbatim.

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

@Suite struct ReadmeExampleTests {
  /// The plugin above is the README's first Swift block, line for line (its `import` aside).
  @Test func thePluginAboveIsTheReadmeBlock() throws {
    let here = URL(fileURLWithPath: #filePath)
    let readme = try String(
      contentsOf: here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("README.md"), encoding: .utf8)
    let section = try #require(readme.range(of: "## Write a plugin"))
    let start = try #require(readme.range(of: "```swift\n", range: section.upperBound..<readme.endIndex))
    let end = try #require(readme.range(of: "\n```", range: start.upperBound..<readme.endIndex))
    let block = readme[start.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
      .filter { !$0.hasPrefix("import ") }.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
    let source = try String(contentsOf: here, encoding: .utf8)
    #expect(source.contains(block), "README's plugin block differs from this file's copy")
  }

  @Test func theReadmePluginAnswersFromJS() async throws {
    let value = try await JSHarness.evaluate(
      """
      await nbridge.greeter.hello({ name: 'Ada' });
      const second = await nbridge.greeter.hello({ name: 'Grace' });
      let code;
      try { await nbridge.greeter.hello({ name: '' }); } catch (e) { code = e.code + ' ' + e.message; }
      return [second.message, second.count, code];
      """, plugins: [GreeterPlugin.self])
    #expect(value == ["Hello, Grace!", 2, "invalid_parameter greeter.hello: \"name\" must not be empty"])
  }

  @Test func theReadmePluginAppearsInTypesAndCatalogue() {
    let registry = PluginRegistry([GreeterPlugin.self])
    let dts = TypeScriptDeclarations.generate(registry)
    #expect(dts.contains("hello(options: { name: string }): Promise<{ message: string; count: number }>;"))
    #expect(dts.contains("greeter: NBridgeGreeterService;"))
    #expect(PluginCatalog.text(registry).contains("greeter  (permission: greeter)"))
  }
}
