import Foundation
import NBridgeTesting
import Testing

/// `nbridge test`: discovery, numbering across files, failures with locations, timeouts.
@Suite(.onTestThreads) struct TestCommandTests {
  @Test func reportsEachTestAndTheTotals() throws {
    let dir = try TemporaryDirectory(prefix: "nbridge-testcmd")
    try dir.write(
      "a.test.js",
      """
      test('passes', () => assert.equal(1 + 1, 2));
      test('fails', () => {
        assert.deepEqual({ a: 1 }, { a: 2 });
      });
      """)
    try dir.write(
      "sub/b.test.js",
      """
      test('async passes', async () => { await new Promise((r) => setTimeout(r, 5)); });
      test('never settles', () => new Promise(() => {}));
      test('rejects with code', () => assert.rejects(nbridge.nope.x(), 'invalid_service'));
      """)
    try dir.write("c.test.js", "throw new Error('outside');")
    let r = try NBridgeTest.command(["test", "--test-timeout", "300", dir.path], environment: NBridgeTest.headless)
    #expect(r.status == 1)
    let lines = r.stdout.split(separator: "\n").map(String.init)
    #expect(lines.contains("ok 1 - passes"))
    #expect(lines.contains("not ok 2 - fails"))
    #expect(r.stdout.contains("a.test.js:3:"))
    #expect(lines.contains("not ok 3 - c.test.js (outside any test)"))
    #expect(lines.contains("ok 4 - async passes"))
    #expect(lines.contains("not ok 5 - never settles"))
    #expect(lines.contains("ok 6 - rejects with code"))
    #expect(lines.last == "3 passed, 3 failed")
  }

  @Test func noTestsIsAnError() throws {
    let dir = try TemporaryDirectory(prefix: "nbridge-testcmd")
    let r = try NBridgeTest.command(["test", dir.path], environment: NBridgeTest.headless)
    #expect(r.status == 1)
    #expect(r.stderr.contains("no *.test.js"))
  }

  @Test func eachFileGetsFreshDataDirectories() throws {
    let dir = try TemporaryDirectory(prefix: "nbridge-testcmd")
    let body = """
      test('starts empty', async () => {
        assert.equal(await nbridge.storage.get({ key: 'seen' }), null);
        await nbridge.storage.set({ key: 'seen', value: true });
      });
      """
    try dir.write("one.test.js", body)
    try dir.write("two.test.js", body)
    let r = try NBridgeTest.command(["test", dir.path], environment: NBridgeTest.headless)
    #expect(r.stdout.hasSuffix("2 passed, 0 failed\n"))
  }
}
