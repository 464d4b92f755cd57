// nbridge.log: debug/info/warn/error (and the seed's `warning`) print `[INFO] index.js:12 message`
// and, with --log-to, go to the viewer. Synchronous, never throwing, one native crossing a
// call; the caller's place is the stack's second frame, read from a stack kept short.
(function (global, internal) {
  'use strict';
  const native = internal.native;
  const format = internal.format;
  const minimum = internal.logLevel === undefined ? 0 : internal.logLevel;
  const E = Error;
  const slice = Array.prototype.slice;
  function text(items) {
    try {
      return format(items);
    } catch {
      try {
        return items.map(String).join(' ');
      } catch {
        return '[unprintable log message]';
      }
    }
  }
  // A string without a % directive, then strings and numbers, print as the formatter would
  // print them: joined with spaces. Anything else (undefined: not plain) goes to the formatter.
  function plain(items, first) {
    if (typeof first !== 'string' || first.indexOf('%') >= 0) return undefined;
    let message = first;
    for (let k = 1; k < items.length; k++) {
      const item = items[k];
      if (typeof item === 'string' || (typeof item === 'number' && (item !== 0 || 1 / item > 0))) {
        message += ' ' + item;
      } else {
        return undefined;
      }
    }
    return message;
  }
  function level(n) {
    if (n < minimum) return function () {};
    return function (first) {
      try {
        // Four frames: this function, then the caller (or native frames such as apply).
        const limit = E.stackTraceLimit;
        E.stackTraceLimit = 4;
        const stack = new E().stack;
        E.stackTraceLimit = limit;
        native.log(n, plain(arguments, first) ?? text(slice.call(arguments)), stack);
      } catch {
        // A log call never throws.
      }
    };
  }
  const warn = level(2);
  const log = Object.freeze({ debug: level(0), info: level(1), warn, warning: warn, error: level(3) });
  Object.defineProperty(global.nbridge, 'log', { value: log, writable: true, configurable: true, enumerable: false });
});
