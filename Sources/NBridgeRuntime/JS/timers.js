// setTimeout, setInterval, their clear functions and queueMicrotask, over native timers.
(function (global, internal) {
  'use strict';
  const native = internal.native;
  const toDelay = (ms) => {
    ms = Number(ms);
    return ms > 0 ? ms : 0;
  };
  function schedule(fn, ms, extra, repeat) {
    if (typeof fn !== 'function') throw new TypeError('The callback must be a function');
    const body = extra.length ? () => fn.apply(undefined, extra) : fn;
    return native.timer(body, toDelay(ms), repeat);
  }
  global.setTimeout = (fn, ms, ...extra) => schedule(fn, ms, extra, false);
  global.setInterval = (fn, ms, ...extra) => schedule(fn, ms, extra, true);
  global.clearTimeout = global.clearInterval = (id) => {
    if (typeof id === 'number') native.clearTimer(id);
  };
  const resolved = Promise.resolve();
  global.queueMicrotask = (fn) => {
    if (typeof fn !== 'function') throw new TypeError('queueMicrotask: the callback must be a function');
    resolved.then(() => {
      try {
        fn();
      } catch (e) {
        native.reportError(e);
      }
    });
  };
});
