// The functions the runtime calls into the prelude (last file: it reads what the others export).
(function (_global, internal) {
  'use strict';
  // The console extension's formatting (NBridgeConsole); without it an error prints its stack as given.
  const inspect = internal.inspect ?? ((v) => String(v));
  const formatStack = internal.formatStack ?? ((stack) => stack ?? '');
  // Methods, not arrows: JavaScriptCore parses and compiles an arrow function at every start for
  // about 10 k instructions more than a method (none of these reads `this`).
  internal.hooks = {
    // bridge.js, built on first touch (deferred.js), defines these: before it runs no call can have
    // been made and no listener added.
    makeError(code, message) {
      internal.loadBridge();
      return internal.makeError(code, message);
    },
    emit(sid, event, payload) {
      return internal.emit?.(sid, event, payload);
    },
    lifecycleListener(name) {
      return internal.lifecycleListener(name);
    },
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
    answer(id, value) {
      return internal.answerCall(id, value);
    },
    fail(id, error) {
      return internal.failCall(id, error);
    },
    answerAll(list) {
      return internal.answerCalls(list);
    },
    inspect(v) {
      return inspect(v, 0, []);
    },
    formatStack,
  };
});
