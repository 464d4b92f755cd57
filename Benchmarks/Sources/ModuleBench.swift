import Foundation

/// ES module figures: a one-line module's start-up beside the plain hello, and loading a
/// generated graph of 300 modules (a tree with shared leaves and one cycle) under nbridge and Deno.
struct ModuleBench {
  let nbridge: String
  let deno: String?
  let directory: String
  let environment: [String: String]

  func write(_ name: String, _ text: String) -> String {
    let path = "\(directory)/\(name)"
    try! FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try! text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// (plain hello ms, module hello ms), interleaved.
  func startups() -> (plain: Double?, module: Double?) {
    let plain = write("hello.js", "console.log('hello');\n")
    let module = write("hello.mjs", "console.log('hello');\n")
    let figures = interleavedStartups([
      ([nbridge, "run", plain], environment), ([nbridge, "run", module], environment),
    ])
    return (figures[0]?.ms, figures[1]?.ms)
  }

  /// The graph's entry: 290 tree modules (each imports its two children and a shared leaf, and
  /// re-reads them through live bindings), 10 shared leaves, and `m1` importing the root back (the cycle).
  func graph() -> String {
    let tree = 290
    let leaves = 10
    for leaf in 0..<leaves {
      _ = write("graph/leaf\(leaf).mjs", "export let value = \(leaf);\nexport function bump() { value += 1; }\n")
    }
    for i in 0..<tree {
      var lines: [String] = []
      var terms: [String] = ["1"]
      for child in [2 * i + 1, 2 * i + 2] where child < tree {
        lines.append("import { total as t\(child) } from './m\(child).mjs';")
        terms.append("t\(child)")
      }
      lines.append("import { value as leaf, bump } from './leaf\(i % leaves).mjs';")
      if i == 1 { lines.append("import * as root from './m0.mjs';") }
      lines.append("bump();")
      lines.append("export const total = \(terms.joined(separator: " + ")) + leaf;")
      lines.append("export function describe() { return 'm\(i) ' + total; }")
      _ = write("graph/m\(i).mjs", lines.joined(separator: "\n") + "\n")
    }
    return write("graph/main.mjs", "import { total, describe } from './m0.mjs';\nconsole.log(total, describe());\n")
  }

  /// (nbridge ms, nbridge ms without its module cache, deno ms) for running the graph's entry,
  /// interleaved. nbridge keeps compiled modules in its cache folder between runs as Deno keeps
  /// them in `DENO_DIR`; each has its own folder here, warmed by the first runs.
  func graphLoad() -> (nbridge: Double?, uncached: Double?, deno: Double?) {
    let entry = graph()
    var cached = environment
    cached["XDG_CACHE_HOME"] = "\(directory)/cache"
    var uncached = environment
    uncached["NBRIDGE_MODULE_CACHE"] = "off"
    var commands: [(argv: [String], set: [String: String])] = [
      ([nbridge, "run", entry], cached), ([nbridge, "run", entry], uncached),
    ]
    if let deno { commands.append(([deno, "run", "--quiet", entry], ["DENO_DIR": "\(directory)/deno"])) }
    let figures = interleavedStartups(commands)
    return (figures[0]?.ms, figures[1]?.ms, deno == nil ? nil : figures[2]?.ms)
  }
}
