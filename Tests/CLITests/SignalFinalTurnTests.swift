import Foundation
import NBridgeTesting
import Testing

/// A stopping signal decides the run's status even when it comes during the last turn, which
/// leaves the loop nothing to wait for (so it never reads the signal), and a write the script
/// saw acknowledged in that turn is on disk for the next run.
@Suite(.onTestThreads) struct SignalFinalTurnTests {
  let dir: TemporaryDirectory
  var env: [String: String?]

  init() throws {
    dir = try TemporaryDirectory(prefix: "nbridge-signal")
    env = NBridgeTest.headless
    env["NBRIDGE_DATA_DIR"] = dir.file("data")
    env["NBRIDGE_SHARED_DIR"] = dir.file("shared")
  }

  @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143)), (SIGHUP, Int32(129))])
  func aSignalDuringABusyLastTurnGivesItsStatus(signal: Int32, status: Int32) throws {
    // The turn stays on the JS thread for 3 s, far longer than the test takes to react to "busy"
    // (it looks every 10 ms): blocked in `Atomics.wait`, as a long computation would hold it, but
    // without spending a core of CPU meanwhile.
    let path = try dir.write(
      "busy.js",
      """
      console.log('busy');
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 3000);
      await nbridge.storage.set({ key: 'k', value: 'written in the last turn' });
      console.log('acknowledged');
      """)
    let child = try NBridgeTest.start(["run", path], environment: env)
    defer { child.stop() }
    #expect(child.waitForOutput("busy\n"), "\(child.stderr)")
    #expect(child.isRunning)
    child.signal(signal)
    #expect(child.wait(timeout: 30) == status, "\(child.stdout)\(child.stderr)")
    #expect(child.wasKilledBySignal == false, "it stopped cleanly and exited with the status")
    // What was acknowledged is on disk; what was not may or may not be.
    let read = try dir.write("read.js", "console.log(JSON.stringify(await nbridge.storage.get({ key: 'k' })));")
    let r = try NBridgeTest.command(["run", read], environment: env)
    #expect(r.status == 0, "\(r.stderr)")
    if child.stdout.contains("acknowledged") {
      #expect(r.stdout.contains("written in the last turn"), "\(r.stdout)")
    }
  }

  @Test func aSignalDuringAModuleLoadGivesItsStatus() throws {
    // A chain of 5,000 modules, loaded by a dynamic import after the entry says so.
    let count = 5000
    for i in 0..<count {
      let next = i + 1 < count ? "import { v\(i + 1) } from './m\(i + 1).mjs';\n" : ""
      _ = try dir.write("mods/m\(i).mjs", next + "export const v\(i) = \(i);\n")
    }
    let entry = try dir.write(
      "mods/main.mjs",
      """
      console.log('loading');
      const { v0 } = await import('./m0.mjs');
      console.log('loaded', v0);
      """)
    var env = self.env
    env["NBRIDGE_MODULE_CACHE"] = "off"
    let child = try NBridgeTest.start(["run", entry], environment: env)
    defer { child.stop() }
    #expect(child.waitForOutput("loading\n", timeout: 30), "\(child.stderr)")
    #expect(child.isRunning)
    child.signal(SIGTERM)
    #expect(child.wait(timeout: 60) == 143, "\(child.stdout)\(child.stderr)")
    #expect(child.wasKilledBySignal == false)
  }
}
