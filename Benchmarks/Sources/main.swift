import Foundation
import Glibc

// `nbridge-bench --dbus-floor-server ADDRESS`: the tray bench's floor, a bare GDBus server.
if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "--dbus-floor-server" {
  DBusFloorServer.serve(address: CommandLine.arguments[2])
}

// nbridge-bench: measures nbridge against the JavaScriptCore floor and its peers (issue 7).
// Prints one table; with BENCH_JSON=FILE also writes the figures as one JSON object.
// Run from the repository root after `swift build -c release` (`make bench`).

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
let jscHelloBinary = ProcessInfo.processInfo.environment["JSC_HELLO_BIN"] ?? "\(root)/.build/release/jsc-hello"
let jscHello = FileManager.default.isExecutableFile(atPath: jscHelloBinary) ? jscHelloBinary : nil
let rounds = 5
let records = 10_000

func progress(_ text: String) { FileHandle.standardError.write(Data("bench: \(text)\n".utf8)) }

var figures = Figures()

/// `BENCH_ONLY=roundtrip,startup,modules,storage,url,webfetch,pasteboard,memory,lifecycle,window,fetch,urls,log,bundle,fs,tray,reload,pagetest`
/// runs only those sections (all by default; `fetch` is the background-fetch wake-up, `webfetch` the headless `fetch()`,
/// `bundle` the sample app bundled by the release nbridge).
let only = Set((ProcessInfo.processInfo.environment["BENCH_ONLY"] ?? "").split(separator: ",").map(String.init))
func want(_ section: String) -> Bool { only.isEmpty || only.contains(section) }
let processes = Processes(nbridge: nbridgeBinary, deno: deno, jscHello: jscHello, directory: subdirectory("processes"))

if want("roundtrip") {
// Rounds interleave the three, so a busy spell of a shared machine slows each alike.
var floor: [Double] = [], jsonEval: [Double] = [], echo: [Double] = [], echoAsync: [Double] = [], echoReply: [Double] = []
for round in 0..<rounds {
  progress("round trips, round \(round + 1) of \(rounds): JavaScriptCore floor, JSON-string protocol, nbridge echo")
  floor += JSCFloor.floorRoundTrip(calls: 100_000, rounds: 1)
  jsonEval += JSCFloor.jsonEvalRoundTrip(calls: 20_000, rounds: 1)
  let figures = InProcess.echo(directory: subdirectory("echo\(round)"), calls: 100_000, asyncCalls: 10_000, rounds: 1)
  echo += figures["echo"] ?? []
  echoAsync += figures["echoAsync"] ?? []
  echoReply += figures["echoReply"] ?? []
}
figures.jscFloor = median(floor)
figures.jsonEval = median(jsonEval)
figures.nbridgeRoundTrip = median(echo)
figures.nbridgeAsyncRoundTrip = median(echoAsync)
figures.nbridgeReplyRoundTrip = median(echoReply)
figures.roundTripRatios = zip(echo, floor).map { $0 / $1 }
}

if want("startup") {
progress("start-up (nbridge, node\(deno == nil ? "" : ", deno")\(jscHello == nil ? "" : ", jsc-hello"))")
let startups = processes.startups()
figures.nbridgeStartup = startups.nbridge?.ms
figures.nbridgeRSS = startups.nbridge?.rssMiB
figures.nodeStartup = startups.node?.ms
figures.nodeRSS = startups.node?.rssMiB
figures.denoStartup = startups.deno?.ms
figures.jscCStartup = startups.jscC?.ms
}

if want("modules") {
  progress("modules: a one-line module's start-up, a 300-module graph (nbridge\(deno == nil ? "" : ", deno"))")
  let modules = ModuleBench(
    nbridge: nbridgeBinary, deno: deno, directory: subdirectory("modules"), environment: processes.environment)
  let startups = modules.startups()
  figures.startupHelloBesideModule = startups.plain
  figures.startupModuleHello = startups.module
  let graph = modules.graphLoad()
  figures.esmGraphLoad = graph.nbridge
  figures.esmGraphLoadUncached = graph.uncached
  figures.denoEsmGraphLoad = graph.deno
}

if want("storage") {
var autocommit: [Double] = [], transaction: [Double] = []
var storage: [String: [Double]] = [:]
// Each round's nbridge figure over the same round's SQLite figure: the spread the median hides.
var setRatios: [Double] = [], burstRatios: [Double] = []
for round in 0..<3 {
  progress("storage, round \(round + 1) of 3: SQLite, then nbridge storage")
  let sqlite = SQLiteBench.inserts(directory: subdirectory("sqlite\(round)"), count: records)
  autocommit.append(sqlite.autocommit)
  transaction.append(sqlite.transaction)
  let run = processes.storage(count: records, rounds: 1, dataDirectory: subdirectory("storage\(round)"))
  storage.merge(run) { $0 + $1 }
  if let set = run["set"]?.first { setRatios.append(set / sqlite.autocommit) }
  if let burst = run["burst"]?.first { burstRatios.append(burst / sqlite.transaction) }
}
figures.sqliteAutocommit = median(autocommit)
figures.sqliteTransaction = median(transaction)
figures.storageSet = median(storage["set"] ?? [])
figures.storageBurst = median(storage["burst"] ?? [])
figures.storageGet = median(storage["get"] ?? [])
figures.storageSetRatios = setRatios
figures.storageBurstRatios = burstRatios
if deno != nil {
  progress("deno localStorage")
  figures.denoLocalStorageSet = median(processes.denoLocalStorage(count: records, rounds: 3))
}
}

if want("url") {
  progress("url_parse_ns: 1,000 URLs (nbridge\(deno == nil ? "" : ", deno"))")
  let urls = URLBench(processes: processes).run()
  figures.urlParse = urls.nbridge
  figures.denoURLParse = urls.deno
}

if want("webfetch") {
  progress("fetch against a local server (nbridge\(deno == nil ? "" : ", deno"))")
  let fetch = FetchBench(processes: processes).run(rounds: 5, requests: 3000)
  figures.fetchLocalRPS = median(fetch.nbridge)
  figures.denoFetchLocalRPS = fetch.deno.isEmpty ? nil : median(fetch.deno)
  figures.fetchCPU = median(fetch.nbridgeCPU)
  figures.denoFetchCPU = median(fetch.denoCPU)
}

if want("pasteboard") {
progress("pasteboard change across processes")
figures.pasteboardChange = median(processes.pasteboardChange(changes: 10))
progress("idle watcher CPU (10 s)")
figures.watchIdleCPU = processes.watchIdleCPU(seconds: 10)
}
if want("memory") {
progress("1,000,000 echo calls in a child")
figures.rssAfterCalls = processes.rssAfterCalls(count: 1_000_000)
figures.rssAfterNoCalls = processes.rssAfterCalls(count: 0)
}

if want("lifecycle") {
  let lifecycle = LifecycleBench(processes: processes)
  progress("suspended app CPU (5 s)")
  figures.suspendedIdleCPU = lifecycle.suspendedIdleCPU(seconds: 5)
  progress("expiration skew (5 rounds of a 2 s budget)")
  figures.expirationSkew = lifecycle.expirationSkew(rounds: 5)
}

if want("window") {
  let bench = WebViewBench(
    binary: ProcessInfo.processInfo.environment["NBRIDGE_BENCH_WEBVIEW"] ?? "\(root)/.build/release/nbridge-bench-webview",
    directory: subdirectory("window"), root: root)
  if let window = bench.run(rounds: 3, calls: 2000) {
    figures.webviewFloorRoundTrip = window.floorRoundTrip
    figures.webviewRoundTrip = window.roundTrip
    figures.webviewWKBridgeRoundTrip = window.wkbridgeRoundTrip
    figures.webviewFloorLoad = window.floorLoad
    figures.appLoad = window.appLoad
    figures.webviewFloorPSS = window.floorPSS
    figures.appPSS = window.appPSS
  }
}

if want("reload") {
  let bench = ReloadBench(nbridge: nbridgeBinary, directory: subdirectory("reload"))
  let reload = bench.run(rounds: 3, edits: 10)
  figures.reload = reload.reload
  figures.watchAppLoad = reload.coldLoad
}

if want("pagetest") {
  let bench = PageTestBench(nbridge: nbridgeBinary, directory: subdirectory("pagetest"))
  let run = bench.run(rounds: 5)
  figures.pageTest = run.page
  figures.pageTestHeadless = run.headless
}

if want("log") {
  let bench = LogBench(nbridge: nbridgeBinary, directory: subdirectory("log"))
  progress("log: echo round trip of this run, then nbridge.log.info on the JS thread")
  figures.logEcho = median(InProcess.echo(directory: subdirectory("log-echo"), calls: 100_000, asyncCalls: 1, rounds: 3)["echo"] ?? [])
  var forwarding: [Double] = [], plain: [Double] = []
  for _ in 0..<3 {
    let cost = bench.callCost(calls: 200_000)
    forwarding += cost.forwarding.map { [$0] } ?? []
    plain += cost.plain.map { [$0] } ?? []
  }
  figures.logCall = median(forwarding)
  figures.logCallPlain = median(plain)
  progress("log: throughput to nbridge logs --json > /dev/null")
  figures.logThroughput = median((0..<3).compactMap { _ in bench.throughput(lines: 100_000) })
  progress("log: 50,000 lines, viewer 2 s late")
  if let late = bench.lateViewer(lines: 50_000, delay: 2, queue: 100_000) {
    figures.logLateLost = Double(late.lost)
    figures.logLateDoubled = Double(late.doubled)
  }
}

if want("fetch") {
  progress("background fetch wake-ups through nbridge daemon (5)")
  figures.fetchWake = FetchWakeBench(nbridge: nbridgeBinary, directory: subdirectory("fetch")).run(rounds: 5)
}

if want("urls") {
  progress("URL hand-off and the control socket")
  let urls = URLHandoffBench(nbridge: nbridgeBinary, directory: subdirectory("urls")).run(rounds: 10)
  figures.urlHandoffWarm = urls.warmMs
  figures.urlHandoffCold = urls.coldMs
  figures.xdgOpenHandoff = urls.xdgOpenMs
  figures.controlPing = urls.pingUs
  figures.unixEchoFloor = urls.echoFloorUs
}

if want("tray") {
  progress("tray icon clicks over D-Bus")
  let tray = TrayBench(nbridge: nbridgeBinary, directory: subdirectory("tray")).run(rounds: 20)
  figures.trayClick = tray.clickMs
  figures.dbusFloor = tray.floorMs
  figures.dbusRoundTrip = tray.roundTripMs
}

if want("fs") {
  let files = FileBench(nbridge: nbridgeBinary, directory: subdirectory("fs"), environment: processes.environment)
    .run(rounds: 5)
  figures.fsRead = median(files.read)
  figures.fsReadFloor = median(files.readFloor)
  figures.fsRoundTrip = median(files.roundTrip)
  figures.fsWrite = median(files.write)
  figures.fsWriteFloor = median(files.writeFloor)
}

if want("bundle") {
  progress("bundle: the sample app's .deb and its bundled command's start-up beside nbridge run")
  let bundle = BundleBench(
    nbridge: nbridgeBinary, app: "\(root)/www", directory: subdirectory("bundle"), environment: processes.environment
  ).run()
  figures.bundleDebMiB = bundle.debMiB
  figures.installedStartup = bundle.installed
  figures.startupBesideInstalled = bundle.development
}

print(figures.table())
if let path = ProcessInfo.processInfo.environment["BENCH_JSON"], !path.isEmpty {
  try figures.json().write(toFile: path, atomically: true, encoding: .utf8)
  progress("wrote \(path)")
}
