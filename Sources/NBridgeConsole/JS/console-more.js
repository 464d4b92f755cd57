// The console methods a script seldom calls, evaluated on the first call of one (console.js
// defines each as a stub of the same name that forwards here): trace, assert, count and
// countReset, time, timeLog and timeEnd. Takes internal.format and internal.formatStack
// (console.js) and its two printers; returns the methods by name.
(function (internal, out, err) {
  'use strict';
  const { format, formatStack } = internal;
  const counters = new Map();
  const timersByLabel = new Map();
  return {
    // Its stack's first frame is this method's: console.js's stub calls it in tail position,
    // which JavaScriptCore's strict mode drops from the stack.
    trace(...a) {
      return err('Trace: ' + format(a) + '\n' + formatStack(new Error().stack));
    },
    assert(cond, ...a) {
      if (!cond) err('Assertion failed' + (a.length ? ': ' + format(a) : ''));
    },
    count(label = 'default') {
      label = String(label);
      counters.set(label, (counters.get(label) || 0) + 1);
      out(label + ': ' + counters.get(label));
    },
    countReset(label = 'default') {
      counters.delete(String(label));
    },
    time(label = 'default') {
      timersByLabel.set(String(label), Date.now());
    },
    timeLog(label = 'default', ...data) {
      label = String(label);
      const start = timersByLabel.get(label);
      if (start !== undefined) {
        out(label + ': ' + (Date.now() - start) + 'ms' + (data.length ? ' ' + format(data) : ''));
      }
    },
    timeEnd(label = 'default') {
      label = String(label);
      out(label + ': ' + (Date.now() - (timersByLabel.get(label) || Date.now())) + 'ms');
      timersByLabel.delete(label);
    },
  };
});
