import Foundation
import NBridgePlugin
import NBridgeRuntime
import NBridgeTesting
import Testing

@Suite struct LoopTests {
  @Test func timersRunByDeadlineThenInsertionAndMicrotasksFirst() async throws {
    let outcome = try await JSHarness.run(
      """
      const log = [];
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
        if (n === 3) { clearInterval(iv); console.log(log.join(',')); }
      }, 7);
      log.push('sync');
      // Every timer up to 20 ms is due before the loop's first turn, however loaded the machine:
      // the order below is by deadline then insertion, not by how late each one ran.
      const start = Date.now();
      while (Date.now() - start < 30) {}
      """)
    #expect(outcome.status == 0)
    #expect(outcome.stdout == "sync,micro,promise,t0a,micro in t0a,t0b,t5,iv1,t20,iv2,iv3\n")
  }

  @Test func uncaughtErrorPrintsNameMessageAndStack() async throws {
    let outcome = try await JSHarness.run(
      """
      function inner() { throw new RangeError('too far'); }
      setTimeout(() => inner(), 0);
      setTimeout(() => console.log('never'), 50);
      """)
    #expect(outcome.status == 1)
    #expect(outcome.stderr.hasPrefix("Uncaught RangeError: too far\n    at inner ("))
    #expect(outcome.stderr.contains("harness.js:1:"))
    #expect(!outcome.stdout.contains("never"))
  }

  @Test func pluginWarningsGoToTheRunsStderr() async throws {
    let outcome = try await JSHarness.run("nbridge.echo.warn({ message: 'careful' });")
    #expect(outcome.status == 0)
    #expect(outcome.stderr == "nbridge: echo: careful\n")
  }

  @Test func unhandledRejectionExitsOne() async throws {
    let outcome = try await JSHarness.run("nbridge.echo.fail({ code: 'not_found', message: 'gone' });")
    #expect(outcome.status == 1)
    #expect(outcome.stderr.contains("Uncaught (in promise) NBridgeError: echo.fail: gone [not_found]"))
  }

  @Test func keepAliveListenerKeepsTheRunGoingUntilRemoved() async throws {
    let outcome = try await JSHarness.run(
      """
      const handle = nbridge.echo.addListener('watch', (p) => console.log('got', p));
      setTimeout(() => nbridge.echo.emit({ event: 'watch', payload: 'one' }), 30);
      setTimeout(() => { handle.remove(); console.log('removed'); }, 80);
      """)
    #expect(outcome.status == 0)
    #expect(outcome.stdout == "got one\nremoved\n")
  }

  @Test func plainListenerDoesNotKeepTheRunAlive() async throws {
    let outcome = try await JSHarness.run(
      """
      nbridge.echo.addListener('ping', (p) => console.log('ping', p));
      nbridge.echo.emit({ event: 'ping', payload: { n: 1 } }).then(() => console.log('emitted'));
      """)
    #expect(outcome.status == 0)
    #expect(outcome.stdout == "ping { n: 1 }\nemitted\n")
  }

  @Test func removeAllListenersStopsDelivery() async throws {
    let value = try await JSHarness.evaluate(
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
    let value = try await JSHarness.evaluate(
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
    let value = try await JSHarness.evaluate(
      """
      const clone = structuredClone({ d: new Date(5), m: new Map([[1, 2]]), a: [1, { b: 2 }] });
      return [btoa('hello'), atob('aGVsbG8='), new TextDecoder().decode(new TextEncoder().encode('é👋')),
              Array.from(new TextEncoder().encode('é')), clone.d.getTime(), clone.m.get(1), clone.a[1].b,
              window === globalThis, confirm('ok?'), prompt('name?'), nbridge.platform(), typeof require, typeof load];
      """)
    #expect(value == ["aGVsbG8=", "hello", "é👋", [195, 169], 5, 2, 2, true, false, nil, "linux", "function", "function"])
  }
}
