import Dispatch
import Glibc
import NBridgeSystem
import Testing

/// `Spawn.launch`: where a child's output goes, its working folder, and what it inherits.
@Suite struct SpawnTests {
  static let environment = ["PATH": "/usr/bin:/bin"]

  @Test func stdoutAndStderrGoToTheirOwnFilesEmptiedFirstInTheFolderAsked() throws {
    let folder = AtomicWriteTests.folder()
    defer { AtomicWriteTests.remove(folder) }
    let out = folder + "/out"
    let err = folder + "/err"
    try POSIX.writeAtomically(out, Array("stale stale stale stale\n".utf8))
    let child = try Spawn.launch(
      ["sh", "-c", "pwd; echo oops >&2"], environment: Self.environment,
      standard: Spawn.Standard(output: .files(stdout: out, stderr: err)), directory: "/usr/share")
    #expect(Spawn.wait(child.pid) == 0)
    #expect(POSIX.readText(out) == "/usr/share\n")
    #expect(POSIX.readText(err) == "oops\n")
  }

  @Test func aMissingFolderIsAnErrorNamingIt() throws {
    let error = #expect(throws: SystemError.self) {
      try Spawn.launch(
        ["true"], environment: Self.environment, standard: Spawn.Standard(output: .discard),
        directory: "/nonexistent-nbridge-folder")
    }
    #expect(error?.code == ENOENT)
    #expect(error?.description.contains("/nonexistent-nbridge-folder") == true)
  }

  @Test func stdoutPipedWithStderrDiscarded() throws {
    var standard = Spawn.Standard(stdin: false, capture: true)
    standard.errorPipe = false
    let child = try Spawn.launch(["sh", "-c", "echo out; echo err >&2"], environment: Self.environment, standard: standard)
    #expect(child.stderr == -1)
    let output = try POSIX.readAll(child.stdout, limit: 1024, what: "stdout")
    close(child.stdout)
    #expect(String(decoding: output, as: UTF8.self) == "out\n")
    #expect(Spawn.wait(child.pid) == 0)
  }

  /// A program still open for writing somewhere (ETXTBSY), as a script another thread's starting
  /// child briefly holds, starts once that descriptor is closed a few milliseconds later.
  @Test func aProgramBusyForAMomentStillStarts() throws {
    let folder = AtomicWriteTests.folder()
    defer { AtomicWriteTests.remove(folder) }
    let script = folder + "/busy.sh"
    let fd = open(script, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    #expect(fd >= 0)
    _ = "#!/bin/sh\necho started\n".withCString { write(fd, $0, strlen($0)) }
    // A thread of its own (not a queue shared with the other tests) closes it 20 ms from now.
    let closer = Thread.start {
      usleep(20_000)
      close(fd)
    }
    var standard = Spawn.Standard(stdin: false, capture: true)
    standard.errorPipe = false
    let child = try Spawn.launch([script], environment: Self.environment, standard: standard)
    let output = try POSIX.readAll(child.stdout, limit: 1024, what: "stdout")
    close(child.stdout)
    #expect(String(decoding: output, as: UTF8.self) == "started\n")
    #expect(Spawn.wait(child.pid) == 0)
    closer.join()
  }

  /// A descriptor of ours without close-on-exec does not reach the child (only 0, 1 and 2 do).
  @Test func onlyStdioReachesTheChild() throws {
    // Far above what ls opens itself, whichever low descriptors the other tests hold now.
    let opened = open("/dev/null", O_RDONLY)  // no O_CLOEXEC
    let fd = fcntl(opened, F_DUPFD, 100)  // nor on the copy
    close(opened)
    defer { close(fd) }
    var standard = Spawn.Standard(stdin: false, capture: true)
    standard.errorPipe = false
    let child = try Spawn.launch(["ls", "/proc/self/fd"], environment: Self.environment, standard: standard)
    let output = try POSIX.readAll(child.stdout, limit: 4096, what: "stdout")
    close(child.stdout)
    #expect(Spawn.wait(child.pid) == 0)
    // ls's own listing descriptor (3) shows too; ours (fd, above it) must not.
    let listed = String(decoding: output, as: UTF8.self).split(separator: "\n").compactMap { Int32($0) }
    #expect(listed.filter { $0 > 3 } == [], "inherited: \(listed)")
    #expect(fd >= 100)
    #expect(!listed.contains(fd))
  }
}
