import Foundation
import NBridgePlugin
import NBridgeSQLite
import NBridgeTesting
import Testing
import Synchronization

@testable import NBridgeStorage

@Suite struct SQLiteKeyValueStoreTests {
  @Test func storesReadsAndRemoves() throws {
    let dir = try TemporaryDirectory()
    let store = try SQLiteKeyValueStore(path: dir.file("storage.sqlite"))
    try store.apply([.set(group: "", key: "theme", json: #""dark""#), .set(group: "", key: "count", json: "3")])
    #expect(try store.value(forKey: "theme", group: "") == #""dark""#)
    #expect(try store.value(forKey: "count", group: "") == "3")
    #expect(try store.value(forKey: "missing", group: "") == nil)
    try store.apply([.remove(group: "", key: "theme")])
    #expect(try store.value(forKey: "theme", group: "") == nil)
    #expect(try store.keys(group: "") == ["count"])
  }

  @Test func groupsAreSeparateNamespaces() throws {
    let dir = try TemporaryDirectory()
    let store = try SQLiteKeyValueStore(path: dir.file("storage.sqlite"))
    try store.apply([
      .set(group: "", key: "k", json: "1"), .set(group: "work", key: "k", json: "2"),
      .set(group: "work", key: "j", json: "3"),
    ])
    #expect(try store.value(forKey: "k", group: "work") == "2")
    #expect(try store.keys(group: "work") == ["j", "k"])
    try store.apply([.clear(group: "work")])
    #expect(try store.keys(group: "work") == [])
    #expect(try store.value(forKey: "k", group: "") == "1")
  }

  @Test func survivesReopeningAndKeepsBytesExactly() throws {
    let dir = try TemporaryDirectory()
    let path = dir.file("storage.sqlite")
    let composed = "caf\u{E9}"
    let decomposed = "cafe\u{301}"
    let withNul = "a\u{0}b"
    do {
      let store = try SQLiteKeyValueStore(path: path)
      try store.apply([
        .set(group: "", key: composed, json: "1"), .set(group: "", key: decomposed, json: "2"),
        .set(group: "", key: withNul, json: #""x\u0000y""#),
      ])
    }
    let reopened = try SQLiteKeyValueStore(path: path)
    #expect(try reopened.value(forKey: composed, group: "") == "1")
    #expect(try reopened.value(forKey: decomposed, group: "") == "2")
    #expect(try reopened.value(forKey: withNul, group: "") == #""x\u0000y""#)
    #expect(try reopened.keys(group: "").count == 3)
  }

  @Test func usesWriteAheadLogging() throws {
    let dir = try TemporaryDirectory()
    let store = try SQLiteKeyValueStore(path: dir.file("storage.sqlite"))
    try store.apply([.set(group: "", key: "k", json: "1")])
    #expect(FileManager.default.fileExists(atPath: dir.file("storage.sqlite-wal")))
  }

  @Test func aCorruptFileIsUnavailableNamingIt() throws {
    let dir = try TemporaryDirectory()
    let path = try dir.write("storage.sqlite", String(repeating: "this is not a database ", count: 200))
    let error = #expect(throws: BridgeError.self) { try SQLiteKeyValueStore(path: path) }
    #expect(error?.code == .unavailable)
    #expect(error?.message.contains(path) == true)
  }

  @Test func aDirectoryInTheWayIsUnavailable() throws {
    let dir = try TemporaryDirectory()
    let path = dir.file("storage.sqlite")
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    let error = #expect(throws: BridgeError.self) { try SQLiteKeyValueStore(path: path) }
    #expect(error?.code == .unavailable)
    #expect(error?.message.contains(path) == true)
  }

  @Test func twoConnectionsWritingAtOnceLoseNothing() async throws {
    let dir = try TemporaryDirectory()
    let path = dir.file("storage.sqlite")
    _ = try SQLiteKeyValueStore(path: path)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for writer in 0..<4 {
        group.addTask {
          let store = try SQLiteKeyValueStore(path: path)
          for i in 0..<200 { try store.apply([.set(group: "", key: "w\(writer)-\(i)", json: "\(i)")]) }
        }
      }
      try await group.waitForAll()
    }
    #expect(try SQLiteKeyValueStore(path: path).keys(group: "").count == 800)
  }

  /// Two processes starting on a new data directory both switch the new file to WAL. The one that
  /// read the file while the other held its write lock gets "database is locked" at once (SQLite
  /// skips the busy handler when a read would have to become a write): opening tries again until
  /// the lock is free, for up to the busy timeout.
  @Test func openingWaitsForAnotherConnectionSwitchingANewFileToWAL() throws {
    let dir = try TemporaryDirectory()
    let path = dir.file("storage.sqlite")
    let other = try SQLiteConnection(path: path, busyTimeout: 0)
    try other.execute("CREATE TABLE other (x); BEGIN IMMEDIATE; INSERT INTO other VALUES (1)")
    // nil while opening, then "" or the error.
    let outcome = Mutex<String?>(nil)
    let started = Atomic<Bool>(false)
    let thread = Thread {
      started.store(true, ordering: .releasing)
      do {
        _ = try SQLiteKeyValueStore(path: path)
        outcome.withLock { $0 = "" }
      } catch {
        outcome.withLock { $0 = "\(error)" }
      }
    }
    thread.start()
    #expect(waitUntil(timeout: 10) { started.load(ordering: .acquiring) })
    // The lock is held for half a second more: long past SQLite's immediate answers.
    Thread.sleep(forTimeInterval: 0.5)
    #expect(outcome.withLock { $0 } == nil, "the store finished opening while another connection held the write lock")
    try other.execute("COMMIT")
    #expect(waitUntil(timeout: 10) { outcome.withLock { $0 } != nil })
    #expect(outcome.withLock { $0 } == "", "opening after the lock was freed")
    #expect(try SQLiteConnection(path: path, busyTimeout: 0).scalarText("PRAGMA journal_mode") == "wal")
  }
}
