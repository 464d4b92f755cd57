import NBridgePlugin
import NBridgeTesting
import Testing

/// `NBridgeTest`'s two modes run the same test body alike: a runtime in the test's process, and
/// the `nbridge` executable as a child process.
@Suite(.onTestThreads) struct TestModeTests {
  @Test(arguments: [TestMode.inProcess, .process])
  func aScriptRunsToItsEndWithItsOutputAndTimers(_ mode: TestMode) async throws {
    let run = try await NBridgeTest.run(
      "console.log(typeof nbridge, 1 + 1); setTimeout(() => console.error('later'), 5);", mode)
    #expect(run.status == 0)
    #expect(run.stdout == "object 2\n")
    #expect(run.stderr == "later\n")
  }

  @Test(arguments: [TestMode.inProcess, .process])
  func anUncaughtErrorEndsTheRunWithStatusOne(_ mode: TestMode) async throws {
    let run = try await NBridgeTest.run("function boom() { null.x; }\nboom();\n", mode, name: "boom.js")
    #expect(run.status == 1)
    #expect(run.stderr.contains("Uncaught TypeError"))
    #expect(run.stderr.contains("boom.js:1:"))
  }

  @Test(arguments: [TestMode.inProcess, .process])
  func evaluateGivesWhatTheBodyResolvedWith(_ mode: TestMode) async throws {
    let value = try await NBridgeTest.evaluate(
      "await new Promise((resolve) => setTimeout(resolve, 1));\nreturn { sum: 6 * 7, list: [null, 'x'], none: undefined };", mode)
    #expect(value == ["sum": 42, "list": [nil, "x"]])
    #expect(try await NBridgeTest.evaluate("return undefined", mode) == .null)
  }

  @Test(arguments: [TestMode.inProcess, .process])
  func evaluateThrowsWhatTheBodyRejectedWith(_ mode: TestMode) async throws {
    do {
      _ = try await NBridgeTest.evaluate("throw Object.assign(new RangeError('too far'), { code: 'far_away' })", mode)
      Issue.record("the body's rejection was not thrown")
    } catch let error as ScriptError {
      #expect(error.name == "RangeError")
      #expect(error.code == "far_away")
      #expect(error.message == "too far")
    }
  }

  @Test func aProcessRunSeesItsArgumentsAsTheCommandLineGivesThem() async throws {
    let run = try await NBridgeTest.run("console.log(JSON.stringify(nbridge.args))", .process, arguments: ["--", "a", "b c"])
    #expect(run.status == 0)
    #expect(run.stdout == "[\"a\",\"b c\"]\n")
  }
}
