import NBridgePlugin
import NBridgeTesting
import Synchronization
import Testing

/// A plugin that declares its service (`PluginDeclaration`) has its definition built on the
/// service's first call or listing, not at registration: a start that calls nothing builds none.
/// Serialized: the plugin counts its definition's builds in a static.
@Suite(.serialized) struct LazyDefinitionTests {
  @Test func registeringADeclaredPluginBuildsItsDefinitionOnlyWhenItsActionsAreRead() {
    let before = CountedPlugin.builds.withLock { $0 }
    let registry = PluginRegistry([CountedPlugin.self, SlowStartPlugin.self])
    let counted = registry.definitions[0]
    #expect(counted.service == "counted" && counted.permission == "echo" && !counted.startsAtLaunch)
    #expect(CountedPlugin.builds.withLock { $0 } == before, "registering built the definition")
    #expect(!counted.isBuilt)
    #expect(counted.actions.map(\.name) == ["hello"])
    #expect(counted.summary == "Counts its definition's builds.")
    #expect(counted.events.isEmpty)
    #expect(CountedPlugin.builds.withLock { $0 } == before + 1, "read three times, built once")
    // A plugin without a declaration still registers (its declaration read from its definition).
    #expect(registry.definitions[1].service == "slowStart" && registry.definitions[1].actions.count == 6)
  }

  @Test func aRunThatCallsNoServiceBuildsNoDefinitionAndACallStillAnswers() async throws {
    let before = CountedPlugin.builds.withLock { $0 }
    let idle = try await NBridgeTest.evaluate("return 1 + 1;", plugins: [CountedPlugin.self])
    #expect(idle == 2)
    #expect(CountedPlugin.builds.withLock { $0 } == before, "a run that never touched nbridge built the definition")
    let called = try await NBridgeTest.evaluate(
      "return [await nbridge.counted.hello(), Object.keys(nbridge.counted)];", plugins: [CountedPlugin.self])
    #expect(called == ["hello", ["hello"]])
    #expect(CountedPlugin.builds.withLock { $0 } > before)
  }
}

/// A plugin whose definition counts how often it is built (a computed static, not a `let`).
@BridgeActor
final class CountedPlugin: Plugin {
  nonisolated static let builds = Mutex(0)
  nonisolated static let declaration = PluginDeclaration(service: "counted", permission: "echo")
  nonisolated static var definition: PluginDefinition<CountedPlugin> {
    builds.withLock { $0 += 1 }
    return PluginDefinition(
      declaration, summary: "Counts its definition's builds.",
      actions: [Action("hello", result: .string) { (_, _: NoOptions, _) in "hello" }])
  }

  init(context: PluginContext) {}
}
