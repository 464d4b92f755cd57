// A page's own timers in `nbridge app` freeze while the app is suspended. WebKit's timers keep
// ticking; a callback that comes due meanwhile is held instead of run, and when the app wakes
// (after `resume` and `stateChange`, and what the runtime held) the held callbacks run in the order
// they came due. An interval or an animation frame that comes due again while held runs once: it
// does not catch up. Clearing a timer or cancelling a frame drops its held callback too. The
// window calls `__nbridgeSuspend(true|false)`. A new document asks the window whether the app is
// suspended (it may be loaded while it is) and holds what comes due until the answer, a moment.
(function (global, internal) {
  'use strict';
  const original = {
    setTimeout: global.setTimeout,
    setInterval: global.setInterval,
    clearTimeout: global.clearTimeout,
    clearInterval: global.clearInterval,
    requestAnimationFrame: global.requestAnimationFrame,
    cancelAnimationFrame: global.cancelAnimationFrame,
  };
  let suspended = true;
  // Set once the window has said: its word is newer than the answer to the question below.
  let told = false;
  // 't' + timer id or 'f' + frame id → the call to make, in the order they came due.
  const held = new Map();

  // A handler that is not a function is code, run as a global script (as the original would).
  const evaluate = eval;
  const callable = (handler) => {
    if (typeof handler === 'function') return handler;
    const code = String(handler);
    return () => evaluate(code);
  };

  function timer(start, handler, delay, extra) {
    const fn = callable(handler);
    const id = start.call(global, function () {
      if (!suspended) return fn.apply(this, extra);
      const key = 't' + id;
      if (!held.has(key)) held.set(key, () => fn.apply(global, extra));
    }, delay);
    return id;
  }
  global.setTimeout = function setTimeout(handler, delay, ...extra) {
    return timer(original.setTimeout, handler, delay, extra);
  };
  global.setInterval = function setInterval(handler, delay, ...extra) {
    return timer(original.setInterval, handler, delay, extra);
  };
  // Timeouts and intervals share their ids: either function clears either.
  global.clearTimeout = function clearTimeout(id) {
    held.delete('t' + id);
    return original.clearTimeout.call(global, id);
  };
  global.clearInterval = function clearInterval(id) {
    held.delete('t' + id);
    return original.clearInterval.call(global, id);
  };
  if (typeof original.requestAnimationFrame === 'function') {
    global.requestAnimationFrame = function requestAnimationFrame(callback) {
      if (typeof callback !== 'function') return original.requestAnimationFrame.call(global, callback);
      const id = original.requestAnimationFrame.call(global, function (time) {
        if (!suspended) return callback.call(this, time);
        held.set('f' + id, () => callback.call(global, time));
      });
      return id;
    };
    global.cancelAnimationFrame = function cancelAnimationFrame(id) {
      held.delete('f' + id);
      return original.cancelAnimationFrame.call(global, id);
    };
  }

  Object.defineProperty(global, '__nbridgeSuspend', {
    configurable: false,
    enumerable: false,
    value: (now) => {
      told = true;
      suspend(now);
    },
  });
  const answered = (answer) => {
    if (!told) suspend(answer === '1');
  };
  global.webkit.messageHandlers.nbridge.postMessage('z').then(answered, answered);

  function suspend(now) {
    suspended = now;
    if (suspended) return;
    // A callback may clear one that is still held: it is gone from the map, and not run.
    for (const [key, run] of held) {
      held.delete(key);
      try {
        run();
      } catch (e) {
        internal.native.reportError(e);
      }
    }
  }
});
