import NBridgeSystem
import Foundation
import NBridgeTesting
import Testing

@testable import NBridgePasteboard

@Suite struct PasteboardStoreTests {
  @Test func generalPasteboardCountsEveryChange() throws {
    let dir = try TemporaryDirectory()
    let store = PasteboardStore(sharedDirectory: dir.path)
    #expect(try store.read(.general) == nil)
    _ = try store.write("one", to: .general)
    _ = try store.write(nil, to: .general)
    let written = try store.write("three", to: .general)
    #expect(written == StoredPasteboard(changeCount: 3, text: "three"))
    #expect(try PasteboardStore(sharedDirectory: dir.path).read(.general) == written)
  }

  @Test func namedPasteboardsExistOnlyBetweenCreateAndRemove() throws {
    let dir = try TemporaryDirectory()
    let store = PasteboardStore(sharedDirectory: dir.path)
    let name = try PasteboardName("handoff")
    #expect(try store.write("early", to: .named(name)) == nil)
    try store.create(name)
    #expect(try store.read(.named(name)) == StoredPasteboard(changeCount: 0, text: nil))
    _ = try store.write("hello", to: .named(name))
    try store.create(name)
    #expect(try store.read(.named(name))?.text == "hello", "create keeps an existing pasteboard")
    #expect(try store.remove(name))
    #expect(try store.read(.named(name)) == nil)
    #expect(try store.remove(name) == false)
  }

  @Test func textKeepsEveryCharacterAndNewline() throws {
    let dir = try TemporaryDirectory()
    let store = PasteboardStore(sharedDirectory: dir.path)
    let text = "line one\nline two\n\0 after a NUL, 🎉 and \u{7F}\n"
    _ = try store.write(text, to: .general)
    #expect(try store.read(.general)?.text == text)
    _ = try store.write("", to: .general)
    #expect(try store.read(.general)?.text == "", "an empty string is text, not a cleared pasteboard")
  }

  @Test func aFileThatIsNotAPasteboardIsAnErrorNotGarbage() throws {
    let dir = try TemporaryDirectory()
    try dir.write("pasteboards/.general", "nbridge-pasteboard/1 4 10\nshort")
    #expect(throws: SystemError.self) { try PasteboardStore(sharedDirectory: dir.path).read(.general) }
  }

  /// Four writer threads and a reader hammer one pasteboard: no write is lost (the count is
  /// exact) and the reader only ever sees whole values.
  @Test func concurrentWritersNeverCorruptAndReadersSeeWholeValues() async throws {
    let dir = try TemporaryDirectory()
    let writers = 4
    let rounds = 150
    let problems = await withTaskGroup(of: [String].self) { group in
      for writer in 0..<writers {
        group.addTask {
          let store = PasteboardStore(sharedDirectory: dir.path)
          for round in 0..<rounds {
            do { _ = try store.write(String(repeating: "\(writer)-\(round);", count: 500), to: .general) } catch {
              return ["write: \(error)"]
            }
          }
          return []
        }
      }
      group.addTask {
        let store = PasteboardStore(sharedDirectory: dir.path)
        var seen: [String] = []
        for _ in 0..<(writers * rounds) {
          guard let stored = try? store.read(.general), let text = stored.text else { continue }
          let first = text.prefix { $0 != ";" }
          if text != String(repeating: "\(first);", count: 500) { seen.append("torn read at \(stored.changeCount)") }
        }
        return seen
      }
      var all: [String] = []
      for await found in group { all += found }
      return all
    }
    #expect(problems.isEmpty)
    #expect(try PasteboardStore(sharedDirectory: dir.path).read(.general)?.changeCount == writers * rounds)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path + "/pasteboards")
    #expect(Set(leftovers) == [".general", ".lock"], "no temporary file is left behind")
  }
}
