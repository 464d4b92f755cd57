import NBridgeRuntime
import NBridgeTesting
import Testing

/// What a plain script pays for modules: nothing; the loader is evaluated by the first module.
@Suite struct ModuleLoaderTests {
  func loaderEntries() -> [String] { ModuleLoaderStatistics.entries.withLock { $0 } }

  @Test func aPlainScriptNeverLoadsTheLoaderAndAModuleDoes() async throws {
    // Each run names its entry; the loader records the entries of the runs that loaded it.
    let plain = try await JSHarness.run("const important = 'export'; console.log(__filename)")
    let plainEntry = plain.stdout.trimmingCharacters(in: .newlines)
    #expect(plainEntry.hasSuffix(".js"))
    #expect(!loaderEntries().contains(plainEntry))

    let module = try await JSHarness.run(
      "export const x = 1;\nconsole.log(this === undefined, import.meta.url.slice('file://'.length))")
    let parts = module.stdout.trimmingCharacters(in: .newlines).split(separator: " ")
    #expect(parts.first == "true")
    #expect(loaderEntries().contains(String(parts.last ?? "")))
  }
}
