import Foundation

/// Every figure of one run (nil where unavailable), the goals, and how they print.
struct Figures {
  var jscFloor: Double?
  var nbridgeRoundTrip: Double?
  var nbridgeAsyncRoundTrip: Double?
  var nbridgeReplyRoundTrip: Double?
  var jsonEval: Double?
  var nbridgeStartup: Double?
  var nbridgeRSS: Double?
  var nodeStartup: Double?
  var nodeRSS: Double?
  var denoStartup: Double?
  var jscCStartup: Double?
  var sqliteAutocommit: Double?
  var sqliteTransaction: Double?
  var storageSet: Double?
  var storageBurst: Double?
  var storageGet: Double?
  var denoLocalStorageSet: Double?
  var fetchLocalRPS: Double?
  var denoFetchLocalRPS: Double?
  var fetchCPU: Double?
  var denoFetchCPU: Double?
  var pasteboardChange: Double?
  var watchIdleCPU: Double?
  var rssAfterCalls: Double?
  var rssAfterNoCalls: Double?
  var webviewFloorRoundTrip: Double?
  var webviewRoundTrip: Double?
  var webviewWKBridgeRoundTrip: Double?
  var webviewFloorLoad: Double?
  var appLoad: Double?
  var webviewFloorPSS: Double?
  var appPSS: Double?
  var urlParse: Double?
  var denoURLParse: Double?
  var logEcho: Double?
  var logCall: Double?
  var logCallPlain: Double?
  var logThroughput: Double?
  var logLateLost: Double?
  var logLateDoubled: Double?
  var suspendedIdleCPU: Double?
  var expirationSkew: Double?
  var fetchWake: Double?
  var urlHandoffWarm: Double?
  var urlHandoffCold: Double?
  var xdgOpenHandoff: Double?
  var controlPing: Double?
  var trayClick: Double?
  var dbusFloor: Double?
  var dbusRoundTrip: Double?
  var unixEchoFloor: Double?
  var startupHelloBesideModule: Double?
  var startupModuleHello: Double?
  var esmGraphLoad: Double?
  var esmGraphLoadUncached: Double?
  var denoEsmGraphLoad: Double?
  var bundleDebMiB: Double?
  var installedStartup: Double?
  var startupBesideInstalled: Double?
  var fsRead: Double?
  var fsReadFloor: Double?
  var fsRoundTrip: Double?
  var fsWrite: Double?
  var fsWriteFloor: Double?
  var reload: Double?
  var watchAppLoad: Double?
  var pageTest: Double?
  var pageTestHeadless: Double?
  /// Per-round ratios behind the medians (nbridge over its floor in the same round).
  var roundTripRatios: [Double] = []
  var storageSetRatios: [Double] = []
  var storageBurstRatios: [Double] = []

  /// The JSON object with exactly the issue's keys.
  func json() -> String {
    let pairs: [(String, Double?)] = [
      ("jsc_floor_roundtrip_us", jscFloor), ("nbridge_roundtrip_us", nbridgeRoundTrip),
      ("json_eval_roundtrip_us", jsonEval), ("nbridge_startup_ms", nbridgeStartup), ("nbridge_rss_mib", nbridgeRSS),
      ("node_startup_ms", nodeStartup), ("node_rss_mib", nodeRSS), ("deno_startup_ms", denoStartup), ("jsc_c_startup_ms", jscCStartup),
      ("sqlite_autocommit_us", sqliteAutocommit), ("sqlite_txn_us", sqliteTransaction), ("storage_set_us", storageSet),
      ("storage_set_burst_us", storageBurst), ("storage_get_us", storageGet),
      ("deno_localstorage_set_us", denoLocalStorageSet), ("fetch_local_rps", fetchLocalRPS),
      ("deno_fetch_local_rps", denoFetchLocalRPS), ("fetch_cpu_us", fetchCPU), ("deno_fetch_cpu_us", denoFetchCPU),
      ("pasteboard_change_ms", pasteboardChange),
      ("watch_idle_cpu_pct", watchIdleCPU), ("rss_after_1m_calls_mib", rssAfterCalls),
      ("webview_floor_roundtrip_us", webviewFloorRoundTrip), ("webview_roundtrip_us", webviewRoundTrip),
      ("webview_wkbridge_roundtrip_us", webviewWKBridgeRoundTrip), ("webview_floor_load_ms", webviewFloorLoad),
      ("app_load_ms", appLoad), ("webview_floor_pss_mib", webviewFloorPSS), ("app_pss_mib", appPSS),
      ("url_parse_ns", urlParse), ("deno_url_parse_ns", denoURLParse),
      ("log_call_us", logCall), ("log_throughput_lps", logThroughput), ("log_late_viewer_lost", logLateLost),
      ("suspended_idle_cpu_pct", suspendedIdleCPU), ("expiration_skew_ms", expirationSkew),
      ("fetch_wake_ms", fetchWake),
      ("url_handoff_warm_ms", urlHandoffWarm), ("url_handoff_cold_ms", urlHandoffCold),
      ("xdg_open_handoff_ms", xdgOpenHandoff), ("control_ping_us", controlPing), ("unix_echo_floor_us", unixEchoFloor),
      ("tray_click_ms", trayClick), ("dbus_mainloop_floor_ms", dbusFloor),
      ("dbus_roundtrip_ms", dbusRoundTrip),
      ("startup_module_hello_ms", startupModuleHello), ("esm_graph_load_ms", esmGraphLoad),
      ("esm_graph_load_uncached_ms", esmGraphLoadUncached), ("deno_esm_graph_load_ms", denoEsmGraphLoad),
      ("bundle_deb_mib", bundleDebMiB), ("installed_startup_ms", installedStartup),
      ("fs_read_1mib_us", fsRead), ("read_1mib_floor_us", fsReadFloor), ("fs_write_atomic_us", fsWrite),
      ("write_atomic_floor_us", fsWriteFloor), ("reload_ms", reload), ("watch_app_load_ms", watchAppLoad),
      ("page_test_ms", pageTest), ("page_test_headless_ms", pageTestHeadless),
    ]
    let body = pairs.map { "  \"\($0.0)\": \($0.1.map { String(format: "%.3f", $0) } ?? "null")" }
    return "{\n" + body.joined(separator: ",\n") + "\n}\n"
  }

  /// A goal: `value` must be at most (or at least) `limit`.
  struct Goal {
    var text: String
    var value: Double?
    var limit: Double?
    var atLeast = false

    var verdict: String {
      guard let value, let limit else { return "n/a" }
      return (atLeast ? value >= limit : value <= limit) ? "PASS" : "MISS"
    }
  }

  func ratio(_ a: Double?, _ b: Double?) -> Double? {
    guard let a, let b, b != 0 else { return nil }
    return a / b
  }

  var goals: [Goal] {
    [
      Goal(text: "nbridge_roundtrip ≤ 2.0 × jsc_floor", value: ratio(nbridgeRoundTrip, jscFloor), limit: 2.0),
      Goal(
        text: "json_eval ≥ 13 × nbridge_roundtrip", value: ratio(jsonEval, nbridgeRoundTrip), limit: 13, atLeast: true),
      Goal(text: "nbridge_startup ≤ 0.35 × node_startup", value: ratio(nbridgeStartup, nodeStartup), limit: 0.35),
      Goal(text: "nbridge_startup ≤ deno_startup", value: ratio(nbridgeStartup, denoStartup), limit: 1),
      Goal(text: "nbridge_startup ≤ 1.4 × jsc_c_startup", value: ratio(nbridgeStartup, jscCStartup), limit: 1.4),
      Goal(text: "nbridge_rss ≤ 0.8 × node_rss", value: ratio(nbridgeRSS, nodeRSS), limit: 0.8),
      Goal(text: "storage_set ≤ 1.3 × sqlite_autocommit", value: ratio(storageSet, sqliteAutocommit), limit: 1.3),
      Goal(
        text: "storage_set ≤ deno_localstorage_set / 6", value: ratio(storageSet, denoLocalStorageSet.map { $0 / 6 }),
        limit: 1),
      Goal(text: "storage_set_burst ≤ 3 × sqlite_txn", value: ratio(storageBurst, sqliteTransaction), limit: 3),
      Goal(
        text: "fetch_local_rps ≥ 0.8 × deno_fetch_local_rps", value: ratio(fetchLocalRPS, denoFetchLocalRPS), limit: 0.8,
        atLeast: true),
      Goal(text: "pasteboard_change_ms ≤ 50", value: pasteboardChange, limit: 50),
      Goal(text: "watch_idle_cpu_pct ≤ 0.5", value: watchIdleCPU, limit: 0.5),
      Goal(text: "rss_after_1m_calls_mib ≤ 64", value: rssAfterCalls, limit: 64),
      Goal(
        text: "webview_roundtrip ≤ 1.3 × webview_floor_roundtrip",
        value: ratio(webviewRoundTrip, webviewFloorRoundTrip),
        limit: 1.3),
      Goal(text: "app_load ≤ 1.15 × webview_floor_load", value: ratio(appLoad, webviewFloorLoad), limit: 1.15),
      Goal(text: "app_pss ≤ 1.1 × webview_floor_pss", value: ratio(appPSS, webviewFloorPSS), limit: 1.1),
      Goal(text: "url_parse_ns ≤ 3 × deno_url_parse_ns", value: ratio(urlParse, denoURLParse), limit: 3),
      Goal(text: "log_call ≤ 3 × echo round trip (same run)", value: ratio(logCall, logEcho), limit: 3),
      Goal(text: "log_throughput_lps ≥ 100,000", value: logThroughput, limit: 100_000, atLeast: true),
      Goal(text: "log_late_viewer_lost = 0", value: logLateLost, limit: 0),
      Goal(text: "log_late_viewer doubled = 0", value: logLateDoubled, limit: 0),
      Goal(text: "suspended_idle_cpu_pct ≤ 0.5", value: suspendedIdleCPU, limit: 0.5),
      Goal(text: "expiration_skew_ms ≤ 20", value: expirationSkew, limit: 20),
      Goal(
        text: "fetch_wake_ms ≤ nbridge_startup_ms + 50", value: fetchWake,
        limit: nbridgeStartup.map { $0 + 50 }),
      Goal(
        text: "url_handoff_warm − nbridge_startup ≤ 5 ms",
        value: urlHandoffWarm.flatMap { warm in nbridgeStartup.map { warm - $0 } }, limit: 5),
      Goal(text: "url_handoff_cold ≤ 2.5 × nbridge_startup", value: ratio(urlHandoffCold, nbridgeStartup), limit: 2.5),
      Goal(text: "control_ping ≤ 3 × unix_echo_floor", value: ratio(controlPing, unixEchoFloor), limit: 3),
      Goal(text: "tray_click ≤ 2 × dbus_mainloop_floor", value: ratio(trayClick, dbusFloor), limit: 2),
      Goal(
        text: "startup_module_hello ≤ 1.1 × startup_hello", value: ratio(startupModuleHello, startupHelloBesideModule),
        limit: 1.1),
      Goal(text: "esm_graph_load ≤ deno_esm_graph_load", value: ratio(esmGraphLoad, denoEsmGraphLoad), limit: 1),
      Goal(text: "bundle_deb_mib ≤ 8", value: bundleDebMiB, limit: 8),
      Goal(
        text: "installed_startup ≤ 1.05 × nbridge_startup (same rounds)",
        value: ratio(installedStartup, startupBesideInstalled), limit: 1.05),
      Goal(
        text: "fs_read_1mib ≤ 1.5 × read_1mib_floor + one fs round trip (µs)", value: fsRead,
        limit: fsReadFloor.flatMap { floor in fsRoundTrip.map { 1.5 * floor + $0 } }),
      Goal(text: "fs_write_atomic ≤ 1.3 × write_atomic_floor", value: ratio(fsWrite, fsWriteFloor), limit: 1.3),
      Goal(text: "reload ≤ 2 × watch_app_load (same run)", value: ratio(reload, watchAppLoad), limit: 2),
    ]
  }

  /// The figures, then the goals with PASS/MISS.
  func table() -> String {
    let rows: [(String, Double?, String)] = [
      ("jsc_floor_roundtrip_us", jscFloor, "raw JSC C API: await f(x), deferred promise"),
      ("nbridge_roundtrip_us", nbridgeRoundTrip, "await nbridge.echo.echo({key, value}) (sync action)"),
      ("(nbridge echoAsync, µs)", nbridgeAsyncRoundTrip, "same, action awaiting a continuation (not in JSON)"),
      ("(nbridge echoReply, µs)", nbridgeReplyRoundTrip, "same, action answering through a Reply (not in JSON)"),
      ("json_eval_roundtrip_us", jsonEval, "JSON string + JSONSerialization + evaluate"),
      ("nbridge_startup_ms", nbridgeStartup, "nbridge run hello.js, wall"),
      ("nbridge_rss_mib", nbridgeRSS, "nbridge run hello.js, peak RSS"),
      ("node_startup_ms", nodeStartup, "node hello.js, wall"),
      ("node_rss_mib", nodeRSS, "node hello.js, peak RSS"),
      ("deno_startup_ms", denoStartup, "deno run hello.js, wall"),
      ("jsc_c_startup_ms", jscCStartup, "jsc-hello hello.js: C, a JSC context, the same console.log"),
      ("sqlite_autocommit_us", sqliteAutocommit, "raw SQLite WAL/NORMAL, per INSERT OR REPLACE"),
      ("sqlite_txn_us", sqliteTransaction, "same, 10,000 in one transaction"),
      ("storage_set_us", storageSet, "await storage.set, sequential"),
      ("storage_set_burst_us", storageBurst, "10,000 storage.set, Promise.all, per set"),
      ("storage_get_us", storageGet, "await storage.get, sequential"),
      ("deno_localstorage_set_us", denoLocalStorageSet, "Deno localStorage.setItem"),
      ("fetch_local_rps", fetchLocalRPS, "sequential await (await fetch(url)).text(), local keep-alive server"),
      ("deno_fetch_local_rps", denoFetchLocalRPS, "same in Deno"),
      ("fetch_cpu_us", fetchCPU, "CPU (user + system, every thread) per request of that run, start-up included"),
      ("deno_fetch_cpu_us", denoFetchCPU, "same in Deno"),
      ("pasteboard_change_ms", pasteboardChange, "setString → change event in another process"),
      ("watch_idle_cpu_pct", watchIdleCPU, "idle change listener, 10 s, % of a core"),
      ("rss_after_1m_calls_mib", rssAfterCalls, "peak RSS, 1,000,000 echo calls (nbridge-bench-calls)"),
      ("(same child, 0 calls, MiB)", rssAfterNoCalls, "its baseline (not in JSON)"),
      (
        "webview_floor_roundtrip_us", webviewFloorRoundTrip, "bare WebKitGTK: await postMessage to a handler with reply"
      ),
      ("webview_roundtrip_us", webviewRoundTrip, "nbridge app: await nbridge.echo.echo({key, value})"),
      ("webview_wkbridge_roundtrip_us", webviewWKBridgeRoundTrip, "same call, WKBridge JSON + evaluate resolvePromise"),
      ("webview_floor_load_ms", webviewFloorLoad, "bare window: process start → sample page loaded, first message"),
      ("app_load_ms", appLoad, "nbridge app: process start → sample page loaded, bridge ready"),
      ("webview_floor_pss_mib", webviewFloorPSS, "bare window, PSS of all its processes"),
      ("app_pss_mib", appPSS, "nbridge app, PSS of all its processes"),
      ("url_parse_ns", urlParse, "new URL(u, base?) over 1,000 fixed URLs, per parse"),
      ("deno_url_parse_ns", denoURLParse, "same script under Deno"),
      ("(log: echo round trip, µs)", logEcho, "await nbridge.echo.echo, measured in the log section (not in JSON)"),
      ("log_call_us", logCall, "nbridge.log.info('message', i), JS thread, --log-to a port nobody listens on"),
      ("(log call, no --log-to, µs)", logCallPlain, "same, printing only (not in JSON)"),
      ("log_throughput_lps", logThroughput, "lines/s, first call → last ack, to nbridge logs --json > /dev/null"),
      ("log_late_viewer_lost", logLateLost, "50,000 lines, viewer 2 s late, queue 100,000: lines lost"),
      ("(log late viewer, doubled)", logLateDoubled, "same: lines printed twice (not in JSON)"),
      ("suspended_idle_cpu_pct", suspendedIdleCPU, "suspended app with a 10 ms setInterval, 5 s, % of a core"),
      ("expiration_skew_ms", expirationSkew, "expiration listener vs. its deadline (2 s budget), median"),
      ("fetch_wake_ms", fetchWake, "nbridge daemon: fetch due → exited app's fetch listener called"),
      ("url_handoff_warm_ms", urlHandoffWarm, "nbridge open URL → a running app's appUrlOpen listener"),
      ("url_handoff_cold_ms", urlHandoffCold, "nbridge open URL → listener of the app it launches"),
      ("xdg_open_handoff_ms", xdgOpenHandoff, "xdg-open URL (Xvfb) → a running app's listener"),
      ("control_ping_us", controlPing, "{\"op\":\"ping\"} round trip on a running app's control socket"),
      ("unix_echo_floor_us", unixEchoFloor, "the same line through a bare Unix-socket echo thread"),
      ("tray_click_ms", trayClick, "D-Bus Activate on a running app's tray icon → its click listener"),
      (
        "dbus_mainloop_floor_ms", dbusFloor,
        "a bare GDBus server's method, answered from its main loop → its stdout line, paired rounds"
      ),
      ("dbus_roundtrip_ms", dbusRoundTrip, "Peer.Ping to the app's connection (GDBus answers on its own thread)"),
      ("(startup_hello_ms, same rounds)", startupHelloBesideModule, "nbridge run hello.js beside the module (not in JSON)"),
      ("startup_module_hello_ms", startupModuleHello, "nbridge run hello.mjs (a one-line module), wall"),
      ("esm_graph_load_ms", esmGraphLoad, "nbridge run of a 300-module graph (tree, shared leaves, a cycle), wall"),
      ("esm_graph_load_uncached_ms", esmGraphLoadUncached, "the same with NBRIDGE_MODULE_CACHE=off (every module rewritten)"),
      ("deno_esm_graph_load_ms", denoEsmGraphLoad, "deno run of the same files, wall"),
      ("bundle_deb_mib", bundleDebMiB, "nbridge bundle www (release nbridge): the .deb's size"),
      ("installed_startup_ms", installedStartup, "unpacked archive's bin/<command> run hello.js, wall"),
      ("(nbridge_startup_ms, same rounds)", startupBesideInstalled, "nbridge run hello.js beside it (not in JSON)"),
      ("fs_read_1mib_us", fsRead, "await fs.readFile of a 1 MiB file (a Uint8Array), sequential"),
      ("read_1mib_floor_us", fsReadFloor, "open, fstat, read(2), close of the same file here, same round"),
      ("(fs round trip, µs)", fsRoundTrip, "await fs.paths(), same run (not in JSON)"),
      ("fs_write_atomic_us", fsWrite, "await fs.writeTextFile of 4 KiB: temporary file, fsync, rename, folder fsync"),
      ("write_atomic_floor_us", fsWriteFloor, "the same four steps with plain system calls here, same folder"),
      ("reload_ms", reload, "nbridge app --watch: a page's file written → the reloaded page's first call answered"),
      ("watch_app_load_ms", watchAppLoad, "the same app: process start → its page's first call answered"),
      ("page_test_ms", pageTest, "nbridge test --page of a fixed file of 10 tests (a display given), wall"),
      ("page_test_headless_ms", pageTestHeadless, "nbridge test of the same file, same rounds, wall"),
      ("(page_test / headless)", ratio(pageTest, pageTestHeadless), "reported, no goal (not in JSON)"),
    ]
    func number(_ value: Double?) -> String {
      guard let value else { return "null" }
      return String(format: value < 10 ? "%.2f" : "%.1f", value)
    }
    var lines = ["| figure | value | what |", "|---|---:|---|"]
    lines += rows.map { "| \($0.0) | \(number($0.1)) | \($0.2) |" }
    lines += ["", "| goal | ratio / value | |", "|---|---:|---|"]
    lines += goals.map { "| \($0.text) | \(number($0.value)) | \($0.verdict) |" }
    let spreads = [
      ("nbridge_roundtrip / jsc_floor", roundTripRatios), ("storage_set / sqlite_autocommit", storageSetRatios),
      ("storage_set_burst / sqlite_txn", storageBurstRatios),
    ].filter { !$0.1.isEmpty }
    if !spreads.isEmpty {
      lines += ["", "| ratio, each round (same-round figures) | min | max | rounds |", "|---|---:|---:|---|"]
      lines += spreads.map { name, ratios in
        "| \(name) | \(number(ratios.min())) | \(number(ratios.max())) | \(ratios.map { number($0) }.joined(separator: ", ")) |"
      }
    }
    return lines.joined(separator: "\n")
  }
}
