import Glibc
import NBridgeSystem
import Testing

/// `POSIX.writeAtomically`: a reader, or a crash at any point, sees the old content or the new.
@Suite struct AtomicWriteTests {
  /// A fresh folder under /tmp, removed by the test.
  static func folder() -> String {
    var template = Array("/tmp/nbridge-system-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
  }

  static func remove(_ folder: String) {
    for name in Directory.names(folder) ?? [] { unlink(folder + "/" + name) }
    rmdir(folder)
  }

  @Test func aCrashBetweenWriteAndRenameLeavesTheOldContent() throws {
    let folder = Self.folder()
    defer { Self.remove(folder) }
    let path = folder + "/state.json"
    try POSIX.writeAtomically(path, Array("old".utf8))
    // The process "dies" after the new content is written and synced, before the rename.
    try POSIX.writeAtomically(path, Array("new".utf8), beforeRename: { false })
    #expect(POSIX.readText(path) == "old")
    #expect(POSIX.readText(path + ".tmp-\(getpid())") == "new", "the crash left its temporary file")
    // The next write replaces the leftover and then the file.
    try POSIX.writeAtomically(path, Array("newer".utf8))
    #expect(POSIX.readText(path) == "newer")
    #expect(POSIX.readText(path + ".tmp-\(getpid())") == nil)
  }

  @Test func theFileGetsItsModeAndAFailureNamesThePath() throws {
    let folder = Self.folder()
    defer { Self.remove(folder) }
    try POSIX.writeAtomically(folder + "/a", Array("x".utf8), mode: 0o640)
    var info = stat()
    #expect(stat(folder + "/a", &info) == 0 && info.st_mode & 0o777 == 0o640)
    #expect(throws: SystemError.self) { try POSIX.writeAtomically(folder + "/missing/b", Array("x".utf8)) }
    do {
      try POSIX.writeAtomically(folder + "/missing/b", [])
    } catch {
      #expect(error.description.hasPrefix("cannot open \(folder)/missing/b.tmp-"), "\(error)")
      #expect(error.code == ENOENT)
    }
  }

  @Test func readingAFolderOrAMissingFileFails() {
    #expect(POSIX.readText("/tmp") == nil && errno == EISDIR)
    #expect(POSIX.readText("/nonexistent/file") == nil && errno == ENOENT)
  }
}
