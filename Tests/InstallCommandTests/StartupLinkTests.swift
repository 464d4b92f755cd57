import Foundation
import NBridgeTesting
import Testing

/// How the shipped `nbridge` executable is linked for start-up (Package.swift; docs/architecture.md):
/// at a fixed address, with argv taken from glibc rather than from a scan of /proc/self/maps, and
/// with the shared libraries that most symbols bind to first in the dynamic linker's search order.
@Suite(.onTestThreads) struct StartupLinkTests {
  @Test func theExecutableIsLinkedAtAFixedAddress() throws {
    let handle = try #require(FileHandle(forReadingAtPath: NBridgeTest.executable))
    defer { try? handle.close() }
    let header = [UInt8](handle.readData(ofLength: 18))
    try #require(header.count == 18 && header[0..<4] == [0x7F, 0x45, 0x4C, 0x46], "not an ELF file")
    // e_type: 2 is a fixed-address executable (EXEC), 3 a position-independent one (DYN).
    #expect(UInt16(header[16]) | UInt16(header[17]) << 8 == 2, "nbridge is linked position-independent")
  }

  @Test func argumentsReachTheScriptAndStartUpReadsTheMemoryMapOnlyForJavaScriptCore() throws {
    let dir = try TemporaryDirectory(prefix: "nbridge-argv")
    let file = dir.file("args.js")
    try "console.log(JSON.stringify(nbridge.args))".write(toFile: file, atomically: true, encoding: .utf8)
    let trace = dir.file("trace")
    var env = NBridgeTest.headless
    env["NBRIDGE_DATA_DIR"] = dir.file("data")
    let run = try ChildProcess.run(
      "strace", ["-f", "-e", "trace=openat", "-o", trace, NBridgeTest.executable, "run", file, "--", "a", "b c", "", "--x"],
      environment: env, timeout: 60)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout == "[\"a\",\"b c\",\"\",\"--x\"]\n")
    // JavaScriptCore reads it once for the main thread's stack bounds (glibc's
    // pthread_getattr_np); the Swift runtime's own argv lookup would read it a second time.
    let opens = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
      .filter { $0.contains("\"/proc/self/maps\"") }
    #expect(opens.count <= 1, "\(opens.joined(separator: "\n"))")
  }

  // The executable's DT_NEEDED order is the order the dynamic linker searches for each of the
  // ~11,500 symbols the shared libraries bind at start: JavaScriptCore's references to itself,
  // libstdc++'s and libc's are most of them (Plugins/DBus/CGio/module.modulemap sets the order).
  @Test func theLibrariesMostSymbolsBindToAreSearchedFirst() throws {
    let run = try ChildProcess.run("readelf", ["-d", NBridgeTest.executable], timeout: 60)
    try #require(run.status == 0, "\(run.stderr)")
    let needed = run.stdout.split(separator: "\n").filter { $0.contains("(NEEDED)") }.compactMap { line in
      line.split(separator: "[").last?.split(separator: "]").first.map(String.init)
    }
    #expect(
      Array(needed.prefix(3)) == ["libjavascriptcoregtk-4.1.so.0", "libstdc++.so.6", "libc.so.6"],
      "\(needed)")
  }
}
