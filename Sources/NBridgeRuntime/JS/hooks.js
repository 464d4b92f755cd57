// The functions the runtime calls into the prelude (last file: it reads what the others export).
(function (_global, internal) {
  'use strict';
  // The console extension's formatting (NBridgeConsole).
  const inspect = internal.inspect ?? String;
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
    shiftColumns: internal.shiftColumns,
    lazyColumnShifts: internal.lazyColumnShifts,
    moduleBodies: internal.moduleBodies,
    // What the extensions' global files do once the entry is known (CommonJS's globals, fetch's
    // base): the runtime calls each with the entry's path.
    onEntry: internal.onEntry,
    requireFile: internal.requireFile,
    Promise: internal.OriginalPromise,
    uncaught: internal.uncaught,
    unhandledRejection: internal.unhandledRejection,
    // An uncaught value as NBridgeConsole's `describeUncaught` prints it.
    formatError: internal.formatError,
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
  };
});
