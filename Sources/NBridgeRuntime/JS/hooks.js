// The functions the runtime calls into the prelude (last file: it reads what the others export).
(function (_global, internal) {
  'use strict';
  // The console extension's formatting (NBridgeConsole); without it an error prints its stack as given.
  const inspect = internal.inspect ?? ((v) => String(v));
  const formatStack = internal.formatStack ?? ((stack) => stack ?? '');
  internal.hooks = {
    // bridge.js, built on first touch (deferred.js), defines these: before it runs no call can have
    // been made and no listener added.
    makeError: (code, message) => (internal.loadBridge(), internal.makeError(code, message)),
    emit: (sid, event, payload) => internal.emit?.(sid, event, payload),
    shiftColumns: internal.shiftColumns,
    lazyColumnShifts: internal.lazyColumnShifts,
    moduleBodies: internal.moduleBodies,
    setEntry: internal.setEntry,
    requireFile: internal.requireFile,
    Promise: internal.OriginalPromise,
    uncaught: internal.uncaught,
    unhandledRejection: internal.unhandledRejection,
    formatError(e) {
      if (e instanceof Error) {
        const name = e.name || 'Error';
        const stack = formatStack(e.stack);
        const code = e.code === undefined
          ? ''
          : internal.NBridgeError !== undefined && e instanceof internal.NBridgeError
          ? ' [' + e.code + ']'
          : ' (code ' + e.code + ')';
        return name + ': ' + e.message + code + (stack ? '\n' + stack : '');
      }
      return inspect(e, 1, []);
    },
    // A headless call's answers (bridge.js's calls in flight).
    answer: (id, value) => internal.answerCall(id, value),
    fail: (id, error) => internal.failCall(id, error),
    answerAll: (list) => internal.answerCalls(list),
    inspect: (v) => inspect(v, 0, []),
    formatStack,
  };
});
