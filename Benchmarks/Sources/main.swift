import Foundation
import Glibc

// nbridge-bench: measures nbridge against the JavaScriptCore floor and its peers (issue 7).
// Prints one table; with BENCH_JSON=FILE also writes the figures as one JSON object.
// Run from the repository root after `swift build -c release` (`make bench`).

let arguments = CommandLine.arguments

if arguments.count == 4, arguments[1] == "--child-calls" {
  InProcess.manyEchoes(directory: arguments[3], count: Int(arguments[2]) ?? 1_000_000)
  // Peak resident set of this process since exec, in KiB: "VmHWM:    12345 kB".
  let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
  for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
    print("VmHWM \(line.split(separator: " ")[1])")
  }
  exit(0)
}

let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("nbridge-bench-\(getpid())").path
try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: scratch) }
func subdirectory(_ name: String) -> String {
  let path = "\(scratch)/\(name)"
  try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  return path
}

let root = FileManager.default.currentDirectoryPath
let nbridgeBinary = ProcessInfo.processInfo.environment["NBRIDGE_BIN"] ?? "\(root)/.build/release/nbridge"
let denoBinary = ProcessInfo.processInfo.environment["DENO_BIN"] ?? "\(root)/.build-tools/venv/bin/deno"
let deno = FileManager.default.isExecutableFile(atPath: denoBinary) ? denoBinary : nil
let rounds = 5
let records = 10_000

func progress(_ text: String) { FileHandle.standardError.write(Data("bench: \(text)\n".utf8)) }

var figures = Figures()

// `--storage`: only the SQLite and storage figures (raw SQLite and nbridge.storage in the same run).
if arguments.count == 2, arguments[1] == "--storage" {
  progress("SQLite")
  let sqlite = SQLiteBench.inserts(directory: subdirectory("sqlite"), count: records)
  progress("storage")
  let storage = InProcess.storage(directory: subdirectory("storage"), count: records, rounds: rounds)
  let rows: [(String, Double?)] = [
    ("sqlite_autocommit_us", sqlite.autocommit), ("sqlite_txn_us", sqlite.transaction),
    ("storage_set_us", median(storage["set"] ?? [])), ("storage_set_burst_us", median(storage["burst"] ?? [])),
    ("storage_get_us", median(storage["get"] ?? [])),
  ]
  for (name, value) in rows { print("\(name) \(value.map { String(format: "%.2f", $0) } ?? "null")") }
  try? FileManager.default.removeItem(atPath: scratch)
  exit(0)
}

progress("JavaScriptCore floor")
figures.jscFloor = median(JSCFloor.floorRoundTrip(calls: 100_000, rounds: rounds))
progress("JSON-string protocol")
figures.jsonEval = median(JSCFloor.jsonEvalRoundTrip(calls: 20_000, rounds: rounds))
progress("nbridge echo")
let echo = InProcess.echo(directory: subdirectory("echo"), calls: 100_000, asyncCalls: 10_000, rounds: rounds)
figures.nbridgeRoundTrip = median(echo["echo"] ?? [])
figures.nbridgeAsyncRoundTrip = median(echo["echoAsync"] ?? [])

progress("start-up (nbridge, node\(deno == nil ? "" : ", deno"))")
let processes = Processes(nbridge: nbridgeBinary, deno: deno, directory: subdirectory("processes"))
let startups = processes.startups()
figures.nbridgeStartup = startups.nbridge?.ms
figures.nbridgeRSS = startups.nbridge?.rssMiB
figures.nodeStartup = startups.node?.ms
figures.nodeRSS = startups.node?.rssMiB
figures.denoStartup = startups.deno?.ms

progress("SQLite")
let sqlite = SQLiteBench.inserts(directory: subdirectory("sqlite"), count: records)
figures.sqliteAutocommit = sqlite.autocommit
figures.sqliteTransaction = sqlite.transaction
progress("storage")
let storage = InProcess.storage(directory: subdirectory("storage"), count: records, rounds: 3)
figures.storageSet = median(storage["set"] ?? [])
figures.storageBurst = median(storage["burst"] ?? [])
figures.storageGet = median(storage["get"] ?? [])
if deno != nil {
  progress("deno localStorage")
  figures.denoLocalStorageSet = median(processes.denoLocalStorage(count: records, rounds: 3))
}

progress("pasteboard change across processes")
figures.pasteboardChange = median(processes.pasteboardChange(changes: 10))
progress("idle watcher CPU (10 s)")
figures.watchIdleCPU = processes.watchIdleCPU(seconds: 10)
progress("1,000,000 echo calls in a child")
figures.rssAfterCalls = processes.rssAfterCalls(count: 1_000_000)
figures.rssAfterNoCalls = processes.rssAfterCalls(count: 0)

print(figures.table())
if let path = ProcessInfo.processInfo.environment["BENCH_JSON"], !path.isEmpty {
  try figures.json().write(toFile: path, atomically: true, encoding: .utf8)
  progress("wrote \(path)")
}
