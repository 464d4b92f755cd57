// The test framework `nbridge test` evaluates before each test file: `test`, `assert` and the runner.
// A function of `(global, native, hooks)` returning `run(firstNumber, timeoutMs, file, setupError, ready, start, where)`;
// `ready` is a module test file's evaluation (its tests are registered when it settles). `nbridge test --page`
// runs a file in one document after another: `where` is the current document's (`page`: the app's page file, or
// true for a blank page; `pageError`: why that page could not be loaded; `moveTo(index, page, passed, failed)`:
// asks for the next one), `start` the index of the first test to run in it.
(function (global, native, hooks) {
  'use strict';
  const tests = [];
  class AssertionError extends Error {}
  Object.defineProperty(AssertionError.prototype, 'name', {
    value: 'AssertionError',
    writable: true,
    configurable: true,
  });
  const show = (v) => hooks.inspect(typeof v === 'string' ? [v][0] && JSON.stringify(v) : v);
  function fail(message, extra) {
    throw new AssertionError(message + (extra ? '\n' + extra : ''));
  }
  function deepEqual(a, b, seen) {
    if (Object.is(a, b)) return true;
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
    if (a instanceof Date) return a.getTime() === b.getTime();
    if (a instanceof Map || a instanceof Set) {
      if (a.size !== b.size) return false;
      return deepEqual(Array.from(a), Array.from(b), seen);
    }
    const ka = Object.keys(a), kb = Object.keys(b);
    if (ka.length !== kb.length) return false;
    for (const k of ka) {
      if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
      if (!deepEqual(a[k], b[k], seen)) return false;
    }
    return true;
  }
  function assert(condition, message) {
    if (!condition) fail(message || 'assertion failed: got ' + show(condition));
  }
  assert.ok = assert;
  assert.equal = (actual, expected, message) => {
    if (!Object.is(actual, expected) && actual !== expected) {
      fail(message || 'expected ' + show(expected) + ', got ' + show(actual));
    }
  };
  assert.notEqual = (actual, expected, message) => {
    if (Object.is(actual, expected) || actual === expected) {
      fail(message || 'expected a value other than ' + show(expected));
    }
  };
  assert.deepEqual = (actual, expected, message) => {
    if (!deepEqual(actual, expected, [])) {
      fail(message || 'values differ', '  expected: ' + show(expected) + '\n  actual:   ' + show(actual));
    }
  };
  assert.fail = (message) => fail(message || 'failed');
  assert.throws = (fn, check) => {
    try {
      fn();
    } catch (e) {
      if (typeof check === 'string' && e.code !== check && e.name !== check) {
        fail('expected an error with code ' + check + ', got ' + show(e));
      }
      return e;
    }
    fail('expected the function to throw');
  };
  assert.rejects = async (promiseOrFn, code, message) => {
    let promise;
    try {
      promise = typeof promiseOrFn === 'function' ? promiseOrFn() : promiseOrFn;
    } catch (e) {
      promise = Promise.reject(e);
    }
    if (!promise || typeof promise.then !== 'function') fail(message || 'assert.rejects: expected a promise');
    let error;
    try {
      await promise;
    } catch (e) {
      error = e;
    }
    if (error === undefined) {
      fail(message || 'expected a rejection' + (code ? ' with code ' + code : '') + ', but it resolved');
    }
    if (code !== undefined && (!error || error.code !== code)) {
      fail(
        message ||
          'expected code ' + show(code) + ', got ' + show(error && error.code) + ' (' + (error && error.message) + ')',
      );
    }
    return error;
  };
  global.assert = assert;
  // Drives the lifecycle as the desktop would: 'background', 'foreground' (active) or 'inactive';
  // { for: ms } moves on to `then` (default 'foreground') after ms. Resolves once the move is
  // delivered (with `for`, once the second one is); while suspended, that is when it wakes.
  global.simulate = (state, options) => {
    const states = ['background', 'foreground', 'active', 'inactive'];
    const check = (s, name) => {
      if (states.indexOf(s) < 0) {
        throw new TypeError(
          'simulate(state): ' + name + ' must be one of ' + states.join(', ') + ' (got ' + hooks.inspect(s) + ')',
        );
      }
      return s === 'foreground' ? 'active' : s;
    };
    const ms = options && options.for;
    if (ms !== undefined && !(typeof ms === 'number' && ms >= 0 && ms < 1e9)) {
      throw new TypeError('simulate(state, { for }): for must be a number of milliseconds');
    }
    const then = check((options && options.then) || 'foreground', 'then');
    return native.simulate(check(state, 'state'), ms === undefined ? -1 : ms, then);
  };
  global.AssertionError = AssertionError;
  // test(name, fn) or test(name, options, fn). options.page: 'index.html' runs the test in that page of
  // the app (`nbridge test --page`), true in a blank page of the app's origin, false headless only (with
  // options.reason); a test a run cannot give its place is skipped, and says so on its line.
  global.test = (name, options, fn) => {
    if (fn === undefined && typeof options === 'function') {
      fn = options;
      options = {};
    }
    if (typeof name !== 'string') throw new TypeError('test(name, fn): name must be a string');
    if (typeof fn !== 'function') throw new TypeError('test(name, fn): fn must be a function');
    if (options === null || typeof options !== 'object') {
      throw new TypeError('test(name, options, fn): options must be an object');
    }
    const { page, reason } = options;
    if (!(page === undefined || typeof page === 'boolean' || (typeof page === 'string' && page !== ''))) {
      throw new TypeError("test(name, { page }): page must be a file of the app's folder, true or false");
    }
    if (reason !== undefined && typeof reason !== 'string') {
      throw new TypeError('test(name, { reason }): reason must be a string');
    }
    tests.push({ name, fn, page, reason });
  };

  function location(e, file) {
    const stack = String((e && e.stack) || '');
    for (const line of stack.split('\n')) {
      const at = line.lastIndexOf('@');
      const where = at >= 0 ? line.slice(at + 1) : line;
      if (where.startsWith(file + ':')) return where;
    }
    return file;
  }
  function describe(e) {
    if (e instanceof Error) return e.name + ': ' + e.message;
    return 'thrown: ' + hooks.inspect(e);
  }

  return async function run(first, timeoutMs, file, setupError, ready, start, where) {
    if (ready) {
      try {
        await ready;
      } catch (e) {
        setupError = e;
      }
    }
    let passed = 0, failed = 0, n = first;
    const report = (ok, name, e, skip) => {
      native.print(1, (ok ? 'ok ' : 'not ok ') + n + ' - ' + name + (skip ? ' # SKIP ' + skip : '') + '\n');
      if (!ok) {
        const text = describe(e).split('\n').map((l) => '  # ' + l).join('\n');
        native.print(1, text + '\n  # at ' + location(e, file) + '\n');
      }
      n++;
      if (ok) passed++;
      else failed++;
    };
    if (setupError !== undefined) {
      report(false, file.split('/').pop() + ' (outside any test)', setupError);
    } else {
      for (let i = start || 0; i < tests.length; i++) {
        const t = tests[i];
        // Headless: a test for a page is skipped. In a page: a headless-only test is skipped, a test
        // of another page (or of a blank one: true, the default) moves the run there, and a test
        // that names its page gets that page afresh.
        if (!where && t.page !== undefined && t.page !== false) {
          report(true, t.name, undefined, 'needs a page of the app: nbridge test --page');
          continue;
        }
        if (where && t.page === false) {
          report(true, t.name, undefined, t.reason || 'headless only');
          continue;
        }
        const place = t.page === undefined ? true : t.page;
        if (where && (place !== where.page || (t.page !== undefined && i !== start))) {
          return where.moveTo(i, place, passed, failed);
        }
        if (where && where.pageError) {
          report(false, t.name, new Error(where.pageError));
          continue;
        }
        let timer;
        // A native timer: it fires even while the app is suspended (it brings it back first).
        const timeout = new Promise((_, reject) => {
          timer = native.testTimer(
            timeoutMs,
            () => reject(new Error('the test did not settle within ' + timeoutMs + ' ms (--test-timeout)')),
          );
        });
        try {
          await Promise.race([Promise.resolve().then(() => t.fn()), timeout]);
          report(true, t.name);
        } catch (e) {
          report(false, t.name, e);
        } finally {
          native.clearTestTimer(timer);
        }
      }
    }
    native.testDone(passed, failed);
  };
});
