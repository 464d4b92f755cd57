import Foundation
import NBridgePlugin
import NBridgeRuntime
import NBridgeTesting
import Testing

@Suite struct LoopTests {
  @Test func timersRunByDeadlineThenInsertionAndMicrotasksFirst() async throws {
    try await NBridgeTest.withRuntime { rt in
      _ = try await rt.evaluate(
        """
        globalThis.log = [];
        setTimeout(() => log.push('t20'), 20);
        setTimeout(() => { log.push('t0a'); Promise.resolve().then(() => log.push('micro in t0a')); }, 0);
        setTimeout(() => log.push('t0b'), 0);
        setTimeout(() => log.push('t5'), 5);
        queueMicrotask(() => log.push('micro'));
        Promise.resolve().then(() => log.push('promise'));
        const id = setTimeout(() => log.push('cleared'), 1);
        clearTimeout(id);
        let n = 0;
        const iv = setInterval(() => {
          log.push('iv' + (++n));
          if (n === 3) clearInterval(iv);
        }, 7);
        log.push('sync');
        """)
      await rt.clock.advance(by: .milliseconds(4))
      #expect(try await rt.evaluate("return log.join(',')") == "sync,micro,promise,t0a,micro in t0a,t0b")
      await rt.clock.advance(by: .milliseconds(30))
      // Each at its own deadline, however late the test ran: iv1 at 7, iv2 at 14, t20, iv3 at 21.
      #expect(
        try await rt.evaluate("return log.join(',')")
          == "sync,micro,promise,t0a,micro in t0a,t0b,t5,iv1,iv2,t20,iv3")
    }
  }

  @Test func anIntervalFiresOncePerPeriodUntilCleared() async throws {
    try await NBridgeTest.withRuntime { rt in
      _ = try await rt.evaluate(
        """
        globalThis.ticks = [];
        globalThis.iv = setInterval(() => ticks.push(performance.now()), 100);
        """)
      await rt.clock.advance(by: .milliseconds(99))
      #expect(try await rt.evaluate("return ticks") == [])
      await rt.clock.advance(by: .milliseconds(251))
      #expect(try await rt.evaluate("return ticks") == [100, 200, 300])
      _ = try await rt.evaluate("clearInterval(iv)")
      await rt.clock.advance(by: .seconds(10))
      #expect(try await rt.evaluate("return ticks.length") == 3)
    }
  }

  @Test func timeoutEndsAnIdleRunOnTheClock() async throws {
    try await NBridgeTest.withRuntime(configure: { $0.timeout = .seconds(1) }) { rt in
      _ = try await rt.evaluate("setTimeout(() => console.log('never'), 60000)")
      await rt.clock.advance(by: .milliseconds(999))
      #expect(await rt.status == nil)
      await rt.clock.advance(by: .milliseconds(1))
      #expect(await rt.status == 124)
      #expect(rt.stderr == "nbridge: stopped after --timeout 1s\n")
      await rt.clock.advance(by: .seconds(60))
      #expect(rt.stdout == "")
      await #expect(throws: ScriptError.self) { try await rt.evaluate("return 1") }
    }
  }

  @Test func aScopedRuntimeKeepsItsStateAcrossSteps() async throws {
    try await NBridgeTest.withRuntime { rt in
      _ = try await rt.evaluate("globalThis.seen = []; nbridge.echo.addListener('ping', (p) => seen.push(p));")
      await rt.emit(service: "echo", event: "ping", payload: 1)
      // A zero-delay timer is due at once: the loop does not wait for the clock to move.
      let steps = try await rt.evaluate(
        "await new Promise((r) => setTimeout(r, 0)); console.log('hi'); return [seen, await nbridge.echo.echo({ a: 2 })]")
      #expect(steps == [[1], ["a": 2]])
      #expect(rt.stdout == "hi\n")
      await #expect(throws: ScriptError.self) { try await rt.evaluate("throw new RangeError('no')") }
      #expect(await rt.status == nil)
    }
  }

  @Test func aStepThatDoesNotParseRejectsWithItsSyntaxErrorAndTheRunGoesOn() async throws {
    try await NBridgeTest.withRuntime { rt in
      let refused = await #expect(throws: ScriptError.self) { try await rt.evaluate("return (") }
      #expect(refused?.name == "SyntaxError")
      #expect(refused?.message.isEmpty == false)
      let next = try await rt.evaluate("return 1 + 1")
      #expect(next == 2)
      #expect(await rt.status == nil)
    }
  }

  @Test func uncaughtErrorPrintsNameMessageAndStack() async throws {
    let outcome = try await NBridgeTest.run(
      """
      function inner() { throw new RangeError('too far'); }
      setTimeout(() => inner(), 0);
      setTimeout(() => console.log('never'), 50);
      """)
    #expect(outcome.status == 1)
    #expect(outcome.stderr.hasPrefix("Uncaught RangeError: too far\n    at inner ("))
    #expect(outcome.stderr.contains("main.js:1:"))
    #expect(!outcome.stdout.contains("never"))
  }

  @Test func pluginWarningsGoToTheRunsStderr() async throws {
    let outcome = try await NBridgeTest.run("nbridge.echo.warn({ message: 'careful' });")
    #expect(outcome.status == 0)
    #expect(outcome.stderr == "nbridge: echo: careful\n")
  }

  @Test func unhandledRejectionExitsOne() async throws {
    let outcome = try await NBridgeTest.run("nbridge.echo.fail({ code: 'not_found', message: 'gone' });")
    #expect(outcome.status == 1)
    #expect(outcome.stderr.contains("Uncaught (in promise) NBridgeError: echo.fail: gone [not_found]"))
  }

  @Test func keepAliveListenerKeepsTheRunGoingUntilRemoved() async throws {
    let outcome = try await NBridgeTest.run(
      """
      const handle = nbridge.echo.addListener('watch', (p) => console.log('got', p));
      setTimeout(() => nbridge.echo.emit({ event: 'watch', payload: 'one' }), 30);
      setTimeout(() => { handle.remove(); console.log('removed'); }, 80);
      """)
    #expect(outcome.status == 0)
    #expect(outcome.stdout == "got one\nremoved\n")
  }

  @Test func plainListenerDoesNotKeepTheRunAlive() async throws {
    let outcome = try await NBridgeTest.run(
      """
      nbridge.echo.addListener('ping', (p) => console.log('ping', p));
      nbridge.echo.emit({ event: 'ping', payload: { n: 1 } }).then(() => console.log('emitted'));
      """)
    #expect(outcome.status == 0)
    #expect(outcome.stdout == "ping { n: 1 }\nemitted\n")
  }

  @Test func removeAllListenersStopsDelivery() async throws {
    let value = try await NBridgeTest.evaluate(
      """
      const got = [];
      nbridge.echo.addListener('ping', (p) => got.push(p));
      await nbridge.echo.emit({ event: 'ping', payload: 1 });
      nbridge.echo.removeAllListeners();
      await nbridge.echo.emit({ event: 'ping', payload: 2 });
      let code;
      try { nbridge.echo.addListener('nope', () => {}); } catch (e) { code = e.code; }
      return [got, code];
      """)
    #expect(value == [[1], "invalid_parameter"])
  }

  @Test func hostHooksNbridgeLacksFailLoudly() async throws {
    let value = try await NBridgeTest.evaluate(
      """
      // (module (func (export "add") (param i32 i32) (result i32) local.get 0 local.get 1 i32.add))
      const bytes = new Uint8Array([0,97,115,109,1,0,0,0,1,7,1,96,2,127,127,1,127,3,2,1,0,7,7,1,3,97,100,100,0,0,10,9,1,7,
        0,32,0,32,1,106,11]);
      const sum = new WebAssembly.Instance(new WebAssembly.Module(bytes), {}).exports.add(2, 3);
      const failures = [];
      for (const attempt of [() => WebAssembly.instantiate(bytes), () => WebAssembly.compile(bytes), () => import('./x.js')]) {
        try { await attempt(); failures.push('resolved'); } catch (e) { failures.push(e.name); }
      }
      return [sum, failures];
      """)
    #expect(value == [5, ["TypeError", "TypeError", "Error"]])
  }

  @Test func webGlobalsWork() async throws {
    let value = try await NBridgeTest.evaluate(
      """
      const clone = structuredClone({ d: new Date(5), m: new Map([[1, 2]]), a: [1, { b: 2 }] });
      return [btoa('hello'), atob('aGVsbG8='), new TextDecoder().decode(new TextEncoder().encode('é👋')),
              Array.from(new TextEncoder().encode('é')), clone.d.getTime(), clone.m.get(1), clone.a[1].b,
              window === globalThis, confirm('ok?'), prompt('name?'), nbridge.platform(), typeof require, typeof load];
      """)
    #expect(value == ["aGVsbG8=", "hello", "é👋", [195, 169], 5, 2, 2, true, false, nil, "linux", "function", "function"])
  }
}
