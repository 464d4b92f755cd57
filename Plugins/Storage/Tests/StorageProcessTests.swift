import Foundation
import NBridgePlugin
import NBridgeTesting
import Testing

@testable import NBridgeStorage

/// `storage` as a user runs it: real `nbridge run` processes, killed and run side by side.
@Suite(.serialized) struct StorageProcessTests {
  @Test func everyAcknowledgedSetSurvivesKillNine() throws {
    let dir = try TemporaryDirectory()
    let script = try dir.write(
      "writer.js",
      """
      (async () => {
        for (let i = 0; ; i++) {
          await nbridge.storage.set({ key: 'k' + i, value: { i, text: 'value ' + i } });
          console.log('ack k' + i);
        }
      })();
      """)
    let data = dir.file("data")
    let writer = try NBridgeTest.start(["run", script], environment: ["NBRIDGE_DATA_DIR": data])
    defer { writer.stop() }
    #expect(writer.waitForOutput("ack k500\n", timeout: 60), "stderr: \(writer.stderr)")
    writer.signal(SIGKILL)
    #expect(writer.wait(timeout: 10) == 128 + SIGKILL)

    let acknowledged = writer.stdout.split(separator: "\n", omittingEmptySubsequences: true)
      .filter { $0.hasPrefix("ack k") }.map { String($0.dropFirst(4)) }
    #expect(acknowledged.count > 500)
    let store = try SQLiteKeyValueStore(path: data + "/storage.sqlite")
    var missing: [String] = []
    for key in acknowledged {
      let i = Int(key.dropFirst())!
      if try store.value(forKey: key, group: "") != #"{"i":\#(i),"text":"value \#(i)"}"# { missing.append(key) }
    }
    #expect(missing.isEmpty, "acknowledged but not stored: \(missing.prefix(10))")
  }

  /// `get` hands the stored text to JavaScript to parse once: a stored value comes back as it
  /// was written, and text that is not JSON (a damaged file) still rejects with `unavailable`
  /// naming the key.
  @Test func getGivesBackTheStoredTextAndRefusesDamagedText() throws {
    let dir = try TemporaryDirectory()
    let data = dir.file("data")
    try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
    try SQLiteKeyValueStore(path: data + "/storage.sqlite").apply([
      .set(group: "", key: "good", json: #" {"a" : [1.50, "\u00e9", null, {"b": true}]} "#),
      .set(group: "", key: "bad", json: #"{"a":"#),
    ])
    let script = try dir.write(
      "get.js",
      """
      (async () => {
        console.log(JSON.stringify(await nbridge.storage.get({ key: 'good' })));
        try {
          console.log('resolved ' + await nbridge.storage.get({ key: 'bad' }));
        } catch (e) {
          console.log(e.code + ' ' + e.message);
        }
      })();
      """)
    let run = try NBridgeTest.start(["run", script], environment: ["NBRIDGE_DATA_DIR": data])
    defer { run.stop() }
    #expect(run.wait(timeout: 30) == 0, "stderr: \(run.stderr)")
    let lines = run.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first == #"{"a":[1.5,"é",null,{"b":true}]}"#)
    #expect(lines.last?.hasPrefix("unavailable storage.get: the storage database ") == true)
    #expect(lines.last?.contains(#"holds damaged JSON for "bad""#) == true, "\(lines)")
  }

  @Test func sigtermEndsTheRunWith143AndKeepsEveryAcknowledgedSet() throws {
    let dir = try TemporaryDirectory()
    let script = try dir.write(
      "writer.js",
      """
      (async () => {
        for (let batch = 0; ; batch++) {
          const keys = Array.from({ length: 20 }, (_, i) => 'b' + batch + '-' + i);
          await Promise.all(keys.map((key) => nbridge.storage.set({ key, value: key })));
          console.log('ack ' + keys.join(' '));
        }
      })();
      """)
    let data = dir.file("data")
    let writer = try NBridgeTest.start(["run", script], environment: ["NBRIDGE_DATA_DIR": data])
    defer { writer.stop() }
    #expect(writer.waitForOutput("ack b100-", timeout: 60), "stderr: \(writer.stderr)")
    writer.signal(SIGTERM)
    #expect(writer.wait(timeout: 15) == 143, "stderr: \(writer.stderr)")

    let acknowledged = writer.stdout.split(separator: "\n").filter { $0.hasPrefix("ack ") }
      .flatMap { $0.dropFirst(4).split(separator: " ").map(String.init) }
    let store = try SQLiteKeyValueStore(path: data + "/storage.sqlite")
    let missing = try acknowledged.filter { try store.value(forKey: $0, group: "") != "\"\($0)\"" }
    #expect(acknowledged.count > 2000)
    #expect(missing.isEmpty, "acknowledged but not stored: \(missing.prefix(10))")
  }

  @Test func twoProcessesWritingOneDataDirLoseNothing() throws {
    let dir = try TemporaryDirectory()
    let script = try dir.write(
      "writer.js",
      """
      const name = nbridge.args[0];
      (async () => {
        for (let batch = 0; batch < 20; batch++) {
          const sets = [];
          for (let i = 0; i < 100; i++) {
            sets.push(nbridge.storage.set({ key: name + '-' + (batch * 100 + i), value: batch * 100 + i }));
          }
          await Promise.all(sets);
          await nbridge.storage.set({ key: 'shared', value: name, group: 'last' });
        }
        console.log('done ' + name);
      })();
      """)
    let data = dir.file("data")
    let env: [String: String?] = ["NBRIDGE_DATA_DIR": data]
    let a = try NBridgeTest.start(["run", script, "--", "a"], environment: env)
    let b = try NBridgeTest.start(["run", script, "--", "b"], environment: env)
    defer {
      a.stop()
      b.stop()
    }
    #expect(a.wait(timeout: 120) == 0, "a: \(a.stderr)")
    #expect(b.wait(timeout: 120) == 0, "b: \(b.stderr)")
    #expect(a.stdout.contains("done a") && b.stdout.contains("done b"))
    #expect(!a.stderr.contains("locked") && !b.stderr.contains("locked"))

    let store = try SQLiteKeyValueStore(path: data + "/storage.sqlite")
    let keys = try store.keys(group: "")
    #expect(keys.count == 4000)
    #expect(try store.value(forKey: "a-1999", group: "") == "1999")
    #expect(try store.value(forKey: "b-0", group: "") == "0")
  }

  @Test func tenThousandSetsAtOnceAllResolveAndAreStored() throws {
    let dir = try TemporaryDirectory()
    let script = try dir.write(
      "many.js",
      """
      (async () => {
        const sets = [];
        for (let i = 0; i < 10000; i++) sets.push(nbridge.storage.set({ key: 'k' + i, value: i }));
        const results = await Promise.all(sets);
        console.log('resolved ' + results.length);
        console.log('keys ' + (await nbridge.storage.keys()).length);
      })();
      """)
    let data = dir.file("data")
    let result = try NBridgeTest.command(["run", script], environment: ["NBRIDGE_DATA_DIR": data])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "resolved 10000\nkeys 10000\n")
    let store = try SQLiteKeyValueStore(path: data + "/storage.sqlite")
    #expect(try store.keys(group: "").count == 10_000)
    #expect(try store.value(forKey: "k9999", group: "") == "9999")
  }

  @Test func appExitCommitsWritesStillPending() throws {
    let dir = try TemporaryDirectory()
    let script = try dir.write(
      "exit.js",
      """
      for (let i = 0; i < 100; i++) nbridge.storage.set({ key: 'k' + i, value: i });
      nbridge.preference.set({ key: 'theme', value: 'dark' });
      nbridge.app.exit({ code: 3 });
      """)
    let data = dir.file("data")
    let result = try NBridgeTest.command(["run", script], environment: ["NBRIDGE_DATA_DIR": data])
    #expect(result.status == 3, "\(result.stderr)")
    let store = try SQLiteKeyValueStore(path: data + "/storage.sqlite")
    #expect(try store.keys(group: "").count == 101)
    #expect(try store.value(forKey: "theme", group: "") == #""dark""#)
  }

  @Test func aCorruptDatabaseIsAClearErrorNotACrash() throws {
    let dir = try TemporaryDirectory()
    let data = dir.file("data")
    try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
    let path = try dir.write("data/storage.sqlite", String(repeating: "not a database ", count: 500))
    let script = try dir.write(
      "read.js",
      """
      nbridge.storage.get({ key: 'k' }).then(
        (v) => console.log('resolved', v),
        (e) => console.log(e.code + ' ' + e.message));
      """)
    let result = try NBridgeTest.command(["run", script], environment: ["NBRIDGE_DATA_DIR": data])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("unavailable storage.get: "))
    #expect(result.stdout.contains(path))
  }
}
