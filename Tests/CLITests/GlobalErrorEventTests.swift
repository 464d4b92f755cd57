import NBridgeTesting
import Testing

/// The global `error` and `unhandledrejection` events: what ends a run unless a listener prevents it.
@Suite(.onTestThreads) struct GlobalErrorEventTests {
  /// Runs `script` as `app.js` in the test's process: nothing here needs a process of its own.
  func run(_ script: String) async throws -> NBridgeTest.Outcome {
    try await NBridgeTest.run(script, name: "app.js")
  }

  @Test func preventedTimerErrorKeepsTheRunAlive() async throws {
    let r = try await run(
      """
      addEventListener('error', (e) => {
        console.log('caught', e.message, e.error instanceof Error, e.lineno);
        e.preventDefault();
      });
      setTimeout(() => { throw new Error('in a timer'); }, 1);
      setTimeout(() => console.log('still running'), 30);
      """)
    #expect(r.status == 0)
    #expect(r.stdout == "caught Uncaught Error: in a timer true 5\nstill running\n")
    #expect(r.stderr.isEmpty)
  }

  @Test func observedButNotPreventedErrorEndsTheRun() async throws {
    let r = try await run(
      """
      addEventListener('error', (e) => console.log('saw', e.error.message));
      setTimeout(() => { throw new Error('fatal'); }, 1);
      setTimeout(() => console.log('never'), 30);
      """)
    #expect(r.status == 1)
    #expect(r.stdout == "saw fatal\n")
    #expect(r.stderr.contains("Uncaught Error: fatal"))
  }

  @Test func aThrownObjectWithAnyLineOrColumnIsReportedWithoutCrashing() async throws {
    for (line, column) in [("Infinity", "1"), ("1e300", "0"), ("NaN", "-Infinity"), ("1", "1e12")] {
      let r = try await run("throw { name: 'SyntaxError', message: 'forged', line: \(line), nbridgeColumn: \(column) };")
      #expect(r.status == 1, "line \(line), column \(column): \(r.stderr)")
      #expect(r.stderr.hasPrefix("Uncaught SyntaxError: forged"), "\(r.stderr)")
    }
  }

  @Test func onerrorReturningTrueCancels() async throws {
    let r = try await run(
      """
      globalThis.onerror = (message, file, line, column, error) => {
        console.log(message, line, error.message);
        return true;
      };
      throw new Error('top');
      """)
    #expect(r.status == 0)
    #expect(r.stdout == "Uncaught Error: top 5 top\n")
  }

  @Test func preventedUnhandledRejectionKeepsTheRunAlive() async throws {
    let r = try await run(
      """
      addEventListener('unhandledrejection', (e) => {
        console.log('rejected', e.reason, e.promise instanceof Promise);
        e.preventDefault();
      });
      Promise.reject('why');
      setTimeout(() => console.log('after'), 10);
      """)
    #expect(r.status == 0)
    #expect(r.stdout == "rejected why true\nafter\n")
  }

  @Test func unpreventedUnhandledRejectionEndsTheRun() async throws {
    let r = try await run(
      """
      addEventListener('unhandledrejection', (e) => console.log('saw', e.reason.message));
      Promise.reject(new Error('lost'));
      setTimeout(() => console.log('never'), 30);
      """)
    #expect(r.status == 1)
    #expect(r.stdout == "saw lost\n")
    #expect(r.stderr.contains("Uncaught (in promise) Error: lost"))
  }

  @Test func aTimeoutSignalAloneDoesNotKeepTheRunAlive() async throws {
    let r = try await run("const s = AbortSignal.timeout(60000); s.onabort = () => console.log('late'); console.log('done');")
    #expect(r.status == 0)
    #expect(r.stdout == "done\n")
  }

  @Test func reportErrorWithoutListenerEndsTheRun() async throws {
    let r = try await run("reportError(new RangeError('reported')); setTimeout(() => console.log('never'), 30);")
    #expect(r.status == 1)
    #expect(r.stderr.contains("Uncaught RangeError: reported"))
  }
}
