import Glibc
import NBridgeSystem
import Testing

/// `Directory.names`: every name exactly, read in place (no 256-byte copy past `readdir`'s record).
@Suite struct DirectoryTests {
  @Test func listsEveryNameOfEveryLengthExactlyOnce() throws {
    let folder = AtomicWriteTests.folder()
    defer { AtomicWriteTests.remove(folder) }
    // Names of 1 to 255 bytes (NAME_MAX), multi-byte UTF-8 among them.
    var expected: Set<String> = []
    for length in [1, 2, 7, 8, 9, 31, 100, 254, 255] {
      expected.insert(String(repeating: "a", count: length))
    }
    expected.insert("é" + String(repeating: "z", count: 253))  // 255 bytes
    expected.insert("snow ☃.json")
    for name in expected {
      let fd = open(folder + "/" + name, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
      #expect(fd >= 0, "create \(name.utf8.count)-byte name")
      close(fd)
    }
    let names = try #require(Directory.names(folder))
    #expect(names.count == expected.count)
    #expect(Set(names) == expected)
    #expect(!names.contains(".") && !names.contains(".."))
  }

  @Test func aMissingFolderOrAFileIsNil() {
    #expect(Directory.names("/nonexistent-nbridge-folder") == nil)
    #expect(Directory.names("/etc/hostname") == nil)
  }

  /// `/proc/self/fd` with hundreds of descriptors open (short names packed at the end of
  /// glibc's buffer, where a whole-`d_name` copy faulted): each listing is exactly what is open.
  @Test func listsThisProcessesDescriptorsWhileHundredsAreOpen() throws {
    var opened: [Int32] = []
    defer { for fd in opened { close(fd) } }
    for round in 0..<300 {
      let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
      try #require(fd >= 0)
      opened.append(fd)
      let listed = Set((Directory.names("/proc/self/fd") ?? []).compactMap { Int32($0) })
      let missing = opened.filter { !listed.contains($0) }
      #expect(missing.isEmpty, "round \(round): descriptors \(missing) not listed")
    }
  }
}
