// A page's own timers in `nbridge app` freeze while the app is suspended. WebKit's timers keep
// ticking; a callback that comes due meanwhile is held instead of run, and when the app wakes
// (after `resume` and `stateChange`, and what the runtime held) the held callbacks run in the order
// they came due. An interval or an animation frame that comes due again while held runs once: it
// does not catch up. Clearing a timer or cancelling a frame drops its held callback too. The
// window calls `__nbridgeSuspend(true|false)` in the top frame. A new top document asks the window
// whether the app is suspended (it may be loaded while it is) and holds what comes due until the
// answer, a moment. A frame of the app's inside it holds into the top frame's hub, so one resume
// runs every frame's callbacks, in order; a frame whose top it cannot reach is left alone.
(function (global, internal) {
  'use strict';
  const isTop = global.top === global;
  let hub;
  if (isTop) {
    // `held`: frame number + ':t' + timer id (or ':f' + frame id) → the call to make, in the
    // order they came due. `told`: the window has said, which is newer than the answer below.
    hub = { suspended: true, told: false, held: new Map(), frames: 0 };
    Object.defineProperty(global, '__nbridgeTimers', { value: hub, configurable: false, enumerable: false });
  } else {
    try {
      hub = global.top.__nbridgeTimers;
    } catch {
      hub = undefined; // another origin's top
    }
    if (!hub) return;
  }
  const prefix = hub.frames++ + ':';
  const held = hub.held;
  const original = {
    setTimeout: global.setTimeout,
    setInterval: global.setInterval,
    clearTimeout: global.clearTimeout,
    clearInterval: global.clearInterval,
    requestAnimationFrame: global.requestAnimationFrame,
    cancelAnimationFrame: global.cancelAnimationFrame,
  };

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
      if (!hub.suspended) return fn.apply(this, extra);
      const key = prefix + 't' + id;
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
    held.delete(prefix + 't' + id);
    return original.clearTimeout.call(global, id);
  };
  global.clearInterval = function clearInterval(id) {
    held.delete(prefix + 't' + id);
    return original.clearInterval.call(global, id);
  };
  if (typeof original.requestAnimationFrame === 'function') {
    global.requestAnimationFrame = function requestAnimationFrame(callback) {
      if (typeof callback !== 'function') return original.requestAnimationFrame.call(global, callback);
      const id = original.requestAnimationFrame.call(global, function (time) {
        if (!hub.suspended) return callback.call(this, time);
        held.set(prefix + 'f' + id, () => callback.call(global, time));
      });
      return id;
    };
    global.cancelAnimationFrame = function cancelAnimationFrame(id) {
      held.delete(prefix + 'f' + id);
      return original.cancelAnimationFrame.call(global, id);
    };
  }
  if (!isTop) return;

  function suspend(now) {
    hub.suspended = now;
    if (now) return;
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
  Object.defineProperty(global, '__nbridgeSuspend', {
    configurable: false,
    enumerable: false,
    value: (now) => {
      hub.told = true;
      suspend(now);
    },
  });
  const answered = (answer) => {
    if (!hub.told) suspend(answer === '1');
  };
  global.webkit.messageHandlers.nbridge.postMessage('z').then(answered, answered);
});
