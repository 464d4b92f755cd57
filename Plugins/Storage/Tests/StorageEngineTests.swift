import Foundation
import NBridgePlugin
import NBridgeTesting
import Testing

import NBridgeSQLite
@testable import NBridgeStorage

@Suite struct StorageEngineTests {
  @Test func tenThousandWritesAtOnceAreAllStoredInFewTransactions() async throws {
    let dir = try TemporaryDirectory()
    let path = dir.file("storage.sqlite")
    let transactions = try await NBridgeTest.onLoop {
      let engine = StorageEngine(path: path)
      // Like `Promise.all` of 10,000 `set`s: every call starts before any commit.
      let calls = (0..<10_000).map { i in
        Task { try await engine.write(.set(group: "", key: "key\(i)", json: "\(i)")) }
      }
      for call in calls { try await call.value }
      return engine.transactionCount
    }
    // A transaction a `writesCommittedEarly` (handed to the writer thread as they are queued), and the rest.
    #expect(transactions <= 10_000 / StorageEngine.writesCommittedEarly + 2, "\(transactions) transactions")
    let store = try SQLiteKeyValueStore(path: path)
    #expect(try store.keys(group: "").count == 10_000)
    #expect(try store.value(forKey: "key9999", group: "") == "9999")
  }

  @Test func readsSeeWritesBeforeTheyAreCommitted() async throws {
    let dir = try TemporaryDirectory()
    let path = dir.file("storage.sqlite")
    try SQLiteKeyValueStore(path: path).apply([
      .set(group: "", key: "old", json: "1"), .set(group: "g", key: "gone", json: "2"),
    ])
    try await NBridgeTest.onLoop {
      let engine = StorageEngine(path: path)
      let set = Task { try await engine.write(.set(group: "", key: "new", json: #"{"a":[1,true]}"#)) }
      let remove = Task { try await engine.write(.remove(group: "", key: "old")) }
      let clear = Task { try await engine.write(.clear(group: "g")) }
      let after = Task { try await engine.write(.set(group: "g", key: "after", json: "null")) }
      // None of these has run yet: queue them, then read before the flush commits them.
      await Task.yield()
      #expect(try engine.value(forKey: "new", group: "") == ["a": [1, true]])
      #expect(try engine.value(forKey: "old", group: "") == nil)
      #expect(try engine.keys(group: "") == ["new"])
      #expect(try engine.value(forKey: "gone", group: "g") == nil)
      #expect(try engine.keys(group: "g") == ["after"])
      for task in [set, remove, clear, after] { try await task.value }
      #expect(try engine.keys(group: "") == ["new"])
      #expect(try engine.keys(group: "g") == ["after"])
      #expect(try engine.value(forKey: "after", group: "g") == .null)
    }
  }

  @Test func pendingKeysDifferingOnlyInNormalizationStayApart() async throws {
    let dir = try TemporaryDirectory()
    let path = dir.file("storage.sqlite")
    try await NBridgeTest.onLoop {
      let engine = StorageEngine(path: path)
      let a = Task { try await engine.write(.set(group: "", key: "caf\u{E9}", json: "1")) }
      let b = Task { try await engine.write(.set(group: "", key: "cafe\u{301}", json: "2")) }
      await Task.yield()
      #expect(try engine.keys(group: "").count == 2)
      try await a.value
      try await b.value
      #expect(try engine.value(forKey: "caf\u{E9}", group: "") == 1)
      #expect(try engine.value(forKey: "cafe\u{301}", group: "") == 2)
    }
  }

  @Test func aSetWhileAnotherConnectionHoldsTheWriteLockResolvesAfterItCommits() async throws {
    let dir = try TemporaryDirectory()
    let path = dir.file("storage.sqlite")
    _ = try SQLiteKeyValueStore(path: path)
    let other = try SQLiteConnection(path: path, busyTimeout: 0)
    try other.execute("BEGIN IMMEDIATE; INSERT INTO entries VALUES ('', 'other', '1');")
    let (doneWhileLocked, writerThreadCount, metTheLock) = try await NBridgeTest.onLoop {
      let engine = StorageEngine(path: path)
      let done = DoneFlag()
      let write = Task {
        try await engine.write(.set(group: "", key: "mine", json: "2"))
        done.value = true
      }
      // The writer thread has found the lock in its way: a set that did not wait would be done by now.
      let metTheLock = await waitLettingTheLoopRun(timeout: 20) { engine.writerBusyWaits > 0 }
      let doneWhileLocked = done.value
      try other.execute("COMMIT")
      try await write.value
      return (doneWhileLocked, engine.writerThreadCount, metTheLock)
    }
    #expect(metTheLock, "the writer thread never met the other connection's lock")
    #expect(!doneWhileLocked, "the set resolved while another connection held the write lock")
    #expect(writerThreadCount == 1)
    let store = try SQLiteKeyValueStore(path: path)
    #expect(try store.value(forKey: "other", group: "") == "1")
    #expect(try store.value(forKey: "mine", group: "") == "2")
  }

  @Test func aLongBurstGoesToTheWriterThreadAsItIsQueuedAndCommitsInOrder() async throws {
    let dir = try TemporaryDirectory()
    let path = dir.file("storage.sqlite")
    let batch = StorageEngine.writesCommittedEarly
    let last = 2 * batch + 5
    let (handedOff, readBack, transactions, answered) = try await NBridgeTest.onLoop {
      let engine = StorageEngine(path: path)
      let answered = Counter()
      // In one turn: three batches' worth and one write more; "same" is written in the first
      // batch and again in the third, which commit in different transactions on the writer thread.
      for i in 0...(3 * batch) {
        let key = i == 0 || i == last ? "same" : "k\(i)"
        try engine.write(.set(group: "", key: key, json: "\(i)")) { result in
          if case .success = result { answered.value += 1 }
        }
      }
      // Still in that turn: the three batches are the writer thread's, and reads see them.
      let handedOff = engine.transactionsOnWriter
      let readBack = try engine.value(forKey: "same", group: "")
      await engine.flush()
      return (handedOff, readBack, engine.transactionCount, answered.value)
    }
    #expect(handedOff == 3)
    #expect(readBack == .number(Double(last)))
    #expect(transactions == 4, "three batches and the write after them")
    #expect(answered == 3 * batch + 1)
    let store = try SQLiteKeyValueStore(path: path)
    #expect(try store.keys(group: "").count == 3 * batch)
    #expect(try store.value(forKey: "same", group: "") == "\(last)")
    #expect(try store.value(forKey: "k\(3 * batch)", group: "") == "\(3 * batch)")
  }

  @Test func burstsCommittedOnTheWriterThreadKeepTheWriteAheadLogBounded() async throws {
    let dir = try TemporaryDirectory()
    let path = dir.file("storage.sqlite")
    let json = "\"" + String(repeating: "v", count: 1000) + "\""
    // Two batches a burst: every transaction goes to the writer thread (none to the loop's commit).
    let burst = 2 * StorageEngine.writesCommittedEarly
    let wal = try await NBridgeTest.onLoop {
      let engine = StorageEngine(path: path)
      // 40 bursts of 1 KB values (40 MiB with 512 a batch).
      for round in 0..<40 {
        let calls = (0..<burst).map { i in Task { try await engine.write(.set(group: "", key: "\(round)-\(i)", json: json)) } }
        for call in calls { try await call.value }
      }
      await engine.flush()
      // Its file's size while the engine is open (closing the last connection checkpoints and removes it).
      return try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int ?? 0
    }
    // Checkpointed when due once each burst was in (1,000 frames of 4 KiB), the log restarts
    // from its beginning: its file stays near that plus one burst's frames, far below 40 MiB.
    #expect(wal > 0 && wal < 12_000_000, "\(wal) bytes of write-ahead log")
    #expect(try SQLiteKeyValueStore(path: path).keys(group: "").count == 40 * burst)
  }

  @Test func flushCommitsWhatIsQueued() async throws {
    let dir = try TemporaryDirectory()
    let path = dir.file("storage.sqlite")
    try await NBridgeTest.onLoop {
      let engine = StorageEngine(path: path)
      let write = Task { try await engine.write(.set(group: "", key: "k", json: "1")) }
      await Task.yield()
      await engine.flush()
      #expect(try SQLiteKeyValueStore(path: path).value(forKey: "k", group: "") == "1")
      try await write.value
    }
  }

  @Test func aFailedCommitRejectsEveryCallInItAndKeepsNoTrace() async throws {
    let failing = FailingStore()
    try await NBridgeTest.onLoop {
      let engine = StorageEngine(path: "/nowhere/storage.sqlite") { _ in failing }
      let calls = (0..<3).map { i in Task { try await engine.write(.set(group: "", key: "k\(i)", json: "1")) } }
      for call in calls {
        let error = await #expect(throws: BridgeError.self) { try await call.value }
        #expect(error?.code == .unavailable)
      }
      let value = try engine.value(forKey: "k0", group: "")
      #expect(value == nil)
    }
  }

  @Test func aCorruptDatabaseRejectsCallsInsteadOfCrashing() async throws {
    let dir = try TemporaryDirectory()
    let path = try dir.write("storage.sqlite", String(repeating: "garbage", count: 1000))
    try await NBridgeTest.onLoop {
      let engine = StorageEngine(path: path)
      let read = #expect(throws: BridgeError.self) { try engine.value(forKey: "k", group: "") }
      #expect(read?.code == .unavailable)
      #expect(read?.message.contains(path) == true)
      let write = await #expect(throws: BridgeError.self) {
        try await engine.write(.set(group: "", key: "k", json: "1"))
      }
      #expect(write?.code == .unavailable)
    }
  }

  @Test func oneEnginePerDataDirectory() async throws {
    let same = try await NBridgeTest.onLoop {
      let first = StorageEngine.shared(dataDirectory: "/tmp/a")
      let second = StorageEngine.shared(dataDirectory: "/tmp/a/")
      let other = StorageEngine.shared(dataDirectory: "/tmp/b")
      return first === second && first !== other && first.path == "/tmp/a/storage.sqlite"
    }
    #expect(same)
  }
}

/// A store whose commits fail, as a full disk would make them.
final class FailingStore: KeyValueStore {
  func value(forKey key: String, group: String) throws -> String? { nil }
  func keys(group: String) throws -> [String] { [] }
  func applyIfUnlocked(_ writes: [StoreWrite]) throws -> Bool { throw BridgeError.unavailable("disk full") }
  func apply(_ writes: [StoreWrite]) throws { throw BridgeError.unavailable("disk full") }
  var checkpointDue: Bool { false }
  var checkpointOverdue: Bool { false }
  func checkpoint() {}
}

/// Whether a call has returned, set on the loop.
@BridgeActor final class DoneFlag {
  var value = false
}

@BridgeActor final class Counter {
  var value = 0
}

/// `storage.set` from a script: an awaited one commits in its own call, a burst in few transactions.
@Suite struct StorageCommitGroupingTests {
  @Test func anAwaitedSetCommitsAloneAndTheCallsOfABurstShareATransaction() async throws {
    let dir = try TemporaryDirectory()
    let data = dir.path
    let transactions = try await NBridgeTest.withRuntime(
      plugins: [StoragePlugin.self], realTime: true, configure: { $0.dataDirectory = data }
    ) { rt in
      let value = try await rt.evaluate(
        """
        let turned = false;
        setTimeout(() => { turned = true; }, 0);
        for (let i = 0; i < 20; i++) await nbridge.storage.set({ key: 'a' + i, value: i });
        const turnedAfter20 = turned;
        for (let i = 20; i < 200; i++) await nbridge.storage.set({ key: 'a' + i, value: i });
        const burst = [];
        for (let i = 0; i < 1000; i++) burst.push(nbridge.storage.set({ key: 'b' + i, value: i }));
        const answers = await Promise.all(burst);
        return [turnedAfter20, turned, answers.length, answers.every((a) => a === null),
                (await nbridge.storage.keys()).length];
        """)
      // The first 20 committed in their calls, with no turn of the loop (the timer waited); the
      // loop still turned within the 200 (a lone write in 64 waits for the end of the turn).
      #expect(value == [false, true, 1000, true, 1200])
      return await StorageEngine.shared(dataDirectory: data).transactionCount
    }
    // 200 awaited sets, one transaction each; the burst's first on its own, the 999 after it in
    // two (512 handed to the writer thread as they came, the rest at the end of the turn).
    #expect(transactions >= 201 && transactions <= 203, "\(transactions) transactions")
    let store = try SQLiteKeyValueStore(path: data + "/storage.sqlite")
    #expect(try store.keys(group: "").count == 1200)
    #expect(try store.value(forKey: "a199", group: "") == "199")
    #expect(try store.value(forKey: "b999", group: "") == "999")
  }
}
