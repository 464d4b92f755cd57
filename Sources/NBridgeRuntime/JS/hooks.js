// The functions the runtime calls into the prelude (last file: it reads what the others export).
(function (_global, internal) {
  'use strict';
  const { NBridgeError, inspect, formatStack } = internal;
  internal.hooks = {
    makeError: internal.makeError,
    emit: internal.emit,
    lifecycleListener: internal.lifecycleListener,
    shiftColumns: internal.shiftColumns,
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
          : e instanceof NBridgeError
          ? ' [' + e.code + ']'
          : ' (code ' + e.code + ')';
        return name + ': ' + e.message + code + (stack ? '\n' + stack : '');
      }
      return inspect(e, 1, []);
    },
    inspect: (v) => inspect(v, 0, []),
    formatStack,
  };
});
