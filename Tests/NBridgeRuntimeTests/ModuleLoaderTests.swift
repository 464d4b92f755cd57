import NBridgeRuntime
import NBridgeTesting
import Testing

/// What a plain script pays for modules: nothing; the loader is evaluated by the first module.
@Suite struct ModuleLoaderTests {
  @Test func aPlainScriptNeverLoadsTheLoaderAndAModuleDoes() async throws {
    // No other test of this target runs a module, so the count moves only here.
    let before = ModuleLoaderStatistics.loads.load(ordering: .relaxed)
    let plain = try await JSHarness.run("const important = 'export'; console.log(important, typeof require)")
    #expect(plain.stdout == "export function\n")
    #expect(ModuleLoaderStatistics.loads.load(ordering: .relaxed) == before)

    let module = try await JSHarness.run("export const x = 1;\nconsole.log(this === undefined, x)")
    #expect(module.stdout == "true 1\n")
    #expect(ModuleLoaderStatistics.loads.load(ordering: .relaxed) == before + 1)
  }
}
