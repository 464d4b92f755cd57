import NBridgeRuntime
import NBridgeTesting
import Testing

/// What a plain script pays for modules: nothing; the loader is evaluated by the first module.
@Suite struct ModuleLoaderTests {
  func loaderEntries() -> [String] { ModuleLoaderStatistics.entries.withLock { $0 } }

  @Test func aPlainScriptNeverLoadsTheLoaderAndAModuleDoes() async throws {
    // Each run names its entry; the loader records the entries of the runs that loaded it.
    let plain = try await NBridgeTest.run("const important = 'export'; console.log(__filename)")
    let plainEntry = plain.stdout.trimmingCharacters(in: .newlines)
    #expect(plainEntry.hasSuffix(".js"))
    #expect(!loaderEntries().contains(plainEntry))

    let module = try await NBridgeTest.run(
      "export const x = 1;\nconsole.log(this === undefined, import.meta.url.slice('file://'.length))")
    let parts = module.stdout.trimmingCharacters(in: .newlines).split(separator: " ")
    #expect(parts.first == "true")
    #expect(loaderEntries().contains(String(parts.last ?? "")))
  }

  @Test func aModuleThatImportsNothingRunsAsAModuleWithoutTheLoader() async throws {
    // The manifest's type makes it a module; with no import, export or await it needs no loader, yet keeps a
    // module's rules: strict, `this` undefined, its top-level declarations its own.
    let run = try await NBridgeTest.run(
      """
      var own = 1;
      let strict = false;
      try { undeclaredName = 1; } catch (e) { strict = e instanceof ReferenceError; }
      console.log(this === undefined, strict, 'own' in globalThis, typeof own, __filename);
      """, configure: { $0.manifest.type = "module" })
    let parts = run.stdout.trimmingCharacters(in: .newlines).split(separator: " ")
    #expect(parts.dropLast() == ["true", "true", "false", "number"])
    #expect(parts.last?.hasSuffix(".js") == true)
    #expect(!loaderEntries().contains(String(parts.last ?? "")))
  }
}
