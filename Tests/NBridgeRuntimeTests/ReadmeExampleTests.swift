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
      Action("hello", options: .fields(["name": .string]), result: .fields(["message": .string, "count": .integer])) {
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
