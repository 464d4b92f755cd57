import Foundation
import NBridgeRuntime
import NBridgeTesting
import Testing

/// The EmbedFiles build tool plugin (BuildTools/EmbedFiles): a target's files are in its code
/// byte for byte, whatever characters they hold, and the tool refuses what it cannot embed.
@Suite struct EmbeddedFilesTests {
  static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  static let root = here.deletingLastPathComponent().deletingLastPathComponent()
  /// The plugin's tool, which SwiftPM builds beside the tests and `nbridge`.
  static let tool = URL(fileURLWithPath: NBridgeTest.executable).deletingLastPathComponent()
    .appending(path: "EmbedFilesTool-tool").path

  /// `Embedded/escapes.txt` (this target's, embedded by the plugin) holds what a string literal
  /// must escape: quotes, backslashes, `\(`, `"""`, a tab, CR, CRLF, a combining accent, U+2028,
  /// a bidi override, a four-byte character, NUL, DEL, and no newline at the end.
  @Test func aFileWithEveryKindOfCharacterIsEmbeddedByteForByte() throws {
    let onDisk = [UInt8](try Data(contentsOf: Self.here.appending(path: "Embedded/escapes.txt")))
    #expect(onDisk.count > 200)
    #expect(EmbeddedFiles.escapes_txt == onDisk)
  }

  /// The core's `bridge.js` as the runtime holds it is the file in the repository.
  @Test func theCoresBridgeScriptIsTheFileOnDisk() throws {
    let onDisk = [UInt8](try Data(contentsOf: Self.root.appending(path: "Sources/NBridgeRuntime/JS/bridge.js")))
    #expect(PreludeSource.bridgeScript == onDisk)
  }

  /// The tool (built beside the tests) stops the build, naming the files, for a file that is not
  /// UTF-8 text and for two files that would have the same Swift name; it writes nothing then.
  @Test func theToolRefusesBytesThatAreNotTextAndNamesThatCollide() throws {
    let scratch = try TemporaryDirectory(prefix: "nbridge-embed")
    let output = scratch.file("out/EmbeddedFiles.swift")
    try FileManager.default.createDirectory(atPath: scratch.file("out"), withIntermediateDirectories: true)
    try Data([0x61, 0xFF, 0x62]).write(to: URL(fileURLWithPath: scratch.file("binary.bin")))
    try Data("a".utf8).write(to: URL(fileURLWithPath: scratch.file("a-b.js")))
    try Data("b".utf8).write(to: URL(fileURLWithPath: scratch.file("a_b.js")))

    let binary = try ChildProcess.run(Self.tool, [output, scratch.file("binary.bin")])
    #expect(binary.status == 1)
    #expect(binary.stderr == "EmbedFilesTool: \(scratch.file("binary.bin")) is not UTF-8 text\n")
    let collide = try ChildProcess.run(Self.tool, [output, scratch.file("a-b.js"), scratch.file("a_b.js")])
    #expect(collide.status == 1)
    #expect(collide.stderr.contains("would both be EmbeddedFiles.a_b_js"), "\(collide.stderr)")
    #expect(!FileManager.default.fileExists(atPath: output))

    let fine = try ChildProcess.run(Self.tool, [output, scratch.file("a-b.js")])
    #expect(fine.status == 0, "\(fine.stderr)")
    #expect(
      try String(contentsOfFile: output, encoding: .utf8).contains("static let a_b_js: [UInt8] = Array(\"a\".utf8)"))
  }

  /// Run again on the same files, the tool leaves its output as it was, time and all, so the
  /// module that holds it is not compiled again; a changed file is written anew.
  @Test func theSameFilesLeaveTheOutputUntouched() throws {
    let scratch = try TemporaryDirectory(prefix: "nbridge-embed-again")
    let output = scratch.file("EmbeddedFiles.swift")
    try Data("one".utf8).write(to: URL(fileURLWithPath: scratch.file("a.js")))
    #expect(try ChildProcess.run(Self.tool, [output, scratch.file("a.js")]).status == 0)
    let old = Date(timeIntervalSince1970: 1_000_000_000)
    try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: output)
    func modified() throws -> Date? {
      try FileManager.default.attributesOfItem(atPath: output)[.modificationDate] as? Date
    }

    #expect(try ChildProcess.run(Self.tool, [output, scratch.file("a.js")]).status == 0)
    #expect(try modified() == old)

    try Data("two".utf8).write(to: URL(fileURLWithPath: scratch.file("a.js")))
    #expect(try ChildProcess.run(Self.tool, [output, scratch.file("a.js")]).status == 0)
    #expect(try modified() != old)
    #expect(try String(contentsOfFile: output, encoding: .utf8).contains("Array(\"two\".utf8)"))
  }
}
