import Foundation
import NBridgeTesting
import Testing

/// The module loader under hostile or extreme input (issue 31): a long import cycle replayed from
/// the module cache, and files outside the app's folder or that are not regular files.
@Suite struct ModuleHardeningTests {
  let dir: TemporaryDirectory
  var env: [String: String?]

  init() throws {
    dir = try TemporaryDirectory(prefix: "nbridge-module-hardening")
    env = NBridgeBinary.headless
    env["NBRIDGE_DATA_DIR"] = dir.file("data")
    env["NBRIDGE_SHARED_DIR"] = dir.file("shared")
    env["XDG_CACHE_HOME"] = dir.file("cache")
    env["NBRIDGE_MODULE_CACHE"] = nil
  }

  /// Writes a cycle of `count` modules into `folder`: `m{i}` imports `v{i+1}` from the next and
  /// exports `v{i}` and `get{i}()`; `main.mjs` prints `v0` and `get0()` (`0 1`).
  func writeCycle(_ count: Int, in folder: String) throws -> String {
    for i in 0..<count {
      let next = (i + 1) % count
      _ = try dir.write(
        "\(folder)/m\(i).mjs",
        "import { v\(next) } from './m\(next).mjs';\nexport const v\(i) = \(i);\nexport function get\(i)() { return v\(next); }\n")
    }
    return try dir.write("\(folder)/main.mjs", "import { get0, v0 } from './m0.mjs';\nconsole.log(v0, get0());\n")
  }

  // Issue 31, finding 3: the replayed graph's functions were held in a Swift array the garbage
  // collector does not scan; a graph big enough to collect while it compiled crashed (SIGSEGV).
  @Test func aCycleOfTwoThousandModulesRunsTheSameFromTheModuleCache() throws {
    let main = try writeCycle(2_000, in: "cycle")
    let first = try NBridgeBinary.run(["run", main], environment: env, timeout: 120)
    #expect(first.status == 0)
    #expect(first.stdout == "0 1\n")
    #expect(first.stderr == "")
    let cacheFiles = try FileManager.default.contentsOfDirectory(atPath: dir.file("cache/nbridge/modules"))
    #expect(cacheFiles.count == 1)
    for _ in 0..<2 {
      let cached = try NBridgeBinary.run(["run", main], environment: env, timeout: 120)
      #expect(cached.status == 0)
      #expect(cached.stdout == "0 1\n")
      #expect(cached.stderr == "")
    }
    var off = env
    off["NBRIDGE_MODULE_CACHE"] = "off"
    let uncached = try NBridgeBinary.run(["run", main], environment: off, timeout: 120)
    #expect(uncached.status == 0)
    #expect(uncached.stdout == "0 1\n")
  }
}
