import Foundation
import NBridgeTesting
import Testing

/// The bridge fuzzer's bounded run (Tests/fuzz/bridge-fuzz.js, driven by BridgeFuzzer): every
/// action by every path with generated options; the runtime must not crash or hang, every call
/// must return a Promise that settles with a JSON result or a coded NBridgeError, and what
/// storage and named pasteboards acknowledge must come back as it was.
///
/// `NBRIDGE_FUZZ_SEED` replays a seed in `randomSeed`, `NBRIDGE_FUZZ_SECONDS` makes it a longer
/// run (`make fuzz`), `NBRIDGE_FUZZ_EXCLUDE` replaces the categories left out.
@Suite(.serialized, .onTestThreads) struct BridgeFuzzTests {
  static let environment = ProcessInfo.processInfo.environment

  /// Categories of generated input left out of the bounded run: none. (Until issue 31's
  /// findings 2, 5, 11 and 14 were fixed, 'huge', 'getter', 'proxy', 'hugeNumber' and
  /// 'surrogate' were.) `NBRIDGE_FUZZ_EXCLUDE=a,b` leaves some out to narrow a failure down.
  static let excluded =
    environment["NBRIDGE_FUZZ_EXCLUDE"].map { $0.split(separator: ",").map(String.init) } ?? []

  static func expectNoProblems(_ fuzzer: BridgeFuzzer, _ run: BridgeFuzzer.Run) throws {
    let problems = try fuzzer.problems(in: run)
    for problem in problems { Issue.record(Comment(rawValue: problem)) }
  }

  /// The calls per action and outcome the fuzzer counted (`FUZZ-COVERAGE`).
  static func coverage(_ run: BridgeFuzzer.Run) throws -> [String: [String: Int]] {
    let line = try #require(run.lines("FUZZ-COVERAGE").last)
    return try JSONDecoder().decode([String: [String: Int]].self, from: Data(line.utf8))
  }

  /// Every action `nbridge plugins --json` lists, as `service.action`.
  static func registeredActions() throws -> Set<String> {
    let listed = try NBridgeTest.command(["plugins", "--json"])
    struct Service: Decodable {
      struct Action: Decodable { let name: String }
      let service: String
      let actions: [Action]
    }
    let services = try JSONDecoder().decode([Service].self, from: Data(listed.stdout.utf8))
    return Set(services.flatMap { service in service.actions.map { service.service + "." + $0.name } })
  }

  @Test func fixedSeedReachesEveryActionByEveryPathAndFindsNothing() throws {
    let fuzzer = BridgeFuzzer(seed: 20_261_123, excluded: Self.excluded)
    let run = try fuzzer.run(["iterations=2000"], timeout: 240)
    try Self.expectNoProblems(fuzzer, run)
    let coverage = try Self.coverage(run)
    // app.exit ends a run: appExitEndsTheRunWithItsCodeOrRejects fuzzes it. fs.simulatePick and
    // dialog.simulate could grant the fuzzer paths outside its scratch folder (bridge-fuzz.js says why).
    #expect(
      Set(coverage.keys)
        == (try Self.registeredActions()).subtracting(["app.exit", "fs.simulatePick", "dialog.simulate"]))
    for path in ["method", "callToNative", "postMessage"] {
      #expect(coverage.values.contains { $0[path] != nil }, "no call by \(path)")
    }
    let outcomes = Set(coverage.values.flatMap(\.keys))
    #expect(outcomes.isSuperset(of: ["resolved", "invalid_parameter", "not_found"]))
  }

  @Test func randomSeedFindsNothing() throws {
    let seed = Self.environment["NBRIDGE_FUZZ_SEED"].flatMap { UInt32($0) } ?? UInt32.random(in: 0...UInt32.max)
    let seconds = Self.environment["NBRIDGE_FUZZ_SECONDS"].flatMap { Int($0) }
    print("BridgeFuzzTests: seed \(seed) (NBRIDGE_FUZZ_SEED=\(seed) replays it)")
    let fuzzer = BridgeFuzzer(seed: seed, excluded: Self.excluded)
    let run = try fuzzer.run(
      seconds.map { ["seconds=\($0)"] } ?? ["iterations=2000"], timeout: Double(seconds ?? 0) + 240)
    try Self.expectNoProblems(fuzzer, run)
    if let done = run.lines("FUZZ-DONE").last { print("BridgeFuzzTests: \(done)") }
  }

  @Test func deniedServicesRejectEveryCallWithPermissionDenied() throws {
    var fuzzer = BridgeFuzzer(seed: 31, excluded: Self.excluded)
    fuzzer.denied = ["storage", "pasteboard", "background"]
    let run = try fuzzer.run(["iterations=400"], timeout: 120)
    try Self.expectNoProblems(fuzzer, run)
    let coverage = try Self.coverage(run)
    #expect(coverage["storage.set"]?["permission_denied"] != nil)
    #expect(coverage["preference.get"]?["resolved"] == nil)
  }

  @Test(arguments: 0..<6) func appExitEndsTheRunWithItsCodeOrRejects(round: Int) throws {
    let fuzzer = BridgeFuzzer(seed: 7 &* UInt32(round) &+ 3, excluded: Self.excluded)
    let run = try fuzzer.run(["exit"], timeout: 60)
    let expected = try #require(run.lines("FUZZ-EXIT").first.flatMap { Int32($0) }, "\(run.stdout)\n\(run.stderr)")
    #expect(run.status == expected, "\(run.lines("FUZZ-CASE").first ?? "") ended with \(run.ending)\n\(run.stderr)")
    #expect(run.lines("FUZZ-FAIL").isEmpty, "\(run.lines("FUZZ-FAIL"))")
  }
}
