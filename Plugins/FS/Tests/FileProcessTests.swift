import Foundation
import NBridgeTesting
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Files through the real `nbridge run`: a watch sees another process's change, a run killed
/// in the middle of `writeTextFile` leaves the old or the new content, and a 1 GiB file is
/// refused by `readTextFile` with its size limit while the run goes on.
@Suite struct FileProcessTests {
  @Test func watchSeesAChangeMadeByAnotherProcess() throws {
    let app = try FilesApp()
    let file = app.files + "/watched.txt"
    let child = try app.start(
      """
      const file = (await fs.paths()).data + '/watched.txt';
      await fs.writeTextFile({ path: file, contents: 'one' });
      const ended = fs.watch({
        path: file,
        retainCallback: (change) => {
          console.log('change ' + change.kind + ' ' + change.path);
          fs.unwatch({});
        },
      });
      console.log('watching');
      console.log('ended ' + JSON.stringify(await ended));
      """)
    defer { child.stop() }
    #expect(child.waitForOutput("watching", timeout: 30), "\(child.stdout)\(child.stderr)")
    // Another process (this one) changes the file in place.
    let fd = open(file, O_WRONLY | O_APPEND)
    try #require(fd >= 0)
    _ = "two".withCString { write(fd, $0, 3) }
    close(fd)
    #expect(child.waitForOutput("change modify \(file)", timeout: 30), "\(child.stdout)\(child.stderr)")
    #expect(child.wait(timeout: 30) == 0, "\(child.stderr)")
    #expect(child.stdout.contains("ended null"))
  }

  @Test func aRunKilledInTheMiddleOfWriteTextFileLeavesTheOldOrTheNewContent() throws {
    let app = try FilesApp()
    let file = app.files + "/document.txt"
    let old = String(repeating: "o", count: 8 << 20)
    try old.write(toFile: file, atomically: false, encoding: .utf8)
    let newSize = 48 << 20
    let child = try app.start(
      """
      const file = (await fs.paths()).data + '/document.txt';
      const contents = 'n'.repeat(\(newSize));
      console.log('writing');
      await fs.writeTextFile({ path: file, contents });
      console.log('written');
      """)
    defer { child.stop() }
    #expect(child.waitForOutput("writing", timeout: 60), "\(child.stderr)")
    // Kill it once the temporary file is there: the write is under way.
    var sawTemporary = false
    let deadline = Date().addingTimeInterval(60)
    while Date() < deadline, child.isRunning {
      if (try? FileManager.default.contentsOfDirectory(atPath: app.files))?.contains(where: {
        $0.hasPrefix(".nbridge-tmp-")
      }) == true {
        sawTemporary = true
        break
      }
      usleep(200)
    }
    #expect(sawTemporary, "the temporary file never appeared: \(child.stdout)\(child.stderr)")
    child.signal(SIGKILL)
    child.wait(timeout: 30)
    #expect(child.wasKilledBySignal == true)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
    let isOld = bytes.count == old.utf8.count && bytes.allSatisfy { $0 == UInt8(ascii: "o") }
    let isNew = bytes.count == newSize && bytes.allSatisfy { $0 == UInt8(ascii: "n") }
    #expect(isOld || isNew, "a torn file: \(bytes.count) bytes")
  }

  @Test func aOneGiBFileIsRefusedByReadTextFileNamingTheLimitAndTheRunGoesOn() throws {
    let app = try FilesApp()
    let huge = app.files + "/huge.txt"
    let fd = open(huge, O_WRONLY | O_CREAT, 0o644)
    try #require(fd >= 0)
    try #require(ftruncate(fd, 1 << 30) == 0)
    close(fd)
    let r = try app.run(
      """
      const { data } = await fs.paths();
      await attempt('text', fs.readTextFile({ path: data + '/huge.txt' }));
      await attempt('bytes', fs.readFile({ path: data + '/huge.txt' }));
      await attempt('size', fs.stat({ path: data + '/huge.txt' }).then((s) => s.size));
      await attempt('folder', fs.readTextFile({ path: data }));
      await attempt('after', fs.writeTextFile({ path: data + '/small.txt', contents: 'fine' }));
      """)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      r.stdout.contains(
        "text invalid_parameter fs.readTextFile: \"path\" names a file of 1073741824 bytes; readTextFile reads at most 67108864 bytes (64 MiB)"
      ), "\(r.stdout)")
    #expect(r.stdout.contains("bytes invalid_parameter fs.readFile: \"path\" names a file of 1073741824 bytes"), "\(r.stdout)")
    #expect(r.stdout.contains("size ok 1073741824"), "\(r.stdout)")
    #expect(r.stdout.contains("folder invalid_parameter fs.readTextFile: \"path\" names a folder"), "\(r.stdout)")
    #expect(r.stdout.contains("after ok null"), "\(r.stdout)")
  }
}
