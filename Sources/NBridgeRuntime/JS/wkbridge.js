// Headless stand-in for WKWebView's message handler, so WKBridgeKit's own JS core runs
// unchanged: it posts JSON commands and is answered through its nbridge.resolvePromise.
(function (global, internal) {
  'use strict';
  const native = internal.native;
  const { builtinAction, callByName } = internal;
  // WKBridgeKit's own JS core posts JSON commands to a WKWebView message handler and is answered
  // through its own nbridge.resolvePromise(promiseId, data, error).
  function answer(promiseId, data, error) {
    const target = global.nbridge;
    if (target && typeof target.resolvePromise === 'function') target.resolvePromise(promiseId, data, error);
  }
  global.webkit = {
    messageHandlers: {
      WKBridge: {
        postMessage(message) {
          let command;
          try {
            command = typeof message === 'string' ? JSON.parse(message) : message;
          } catch {
            native.print(2, 'nbridge: WKBridge.postMessage: not JSON: ' + String(message).slice(0, 200) + '\n');
            return;
          }
          if (!command || typeof command !== 'object') return;
          if (command.command === 'onBridgeReady') {
            if (command.promiseId !== undefined) answer(command.promiseId, null, null);
            return;
          }
          const call = builtinAction(String(command.service), String(command.action));
          const promise = call
            ? call(command.option)
            : callByName(String(command.service), String(command.action), command.option);
          promise.then(
            (data) => answer(command.promiseId, data === undefined ? null : data, null),
            (e) =>
              answer(command.promiseId, (e && e.code) || internal.codes.unknownError, {
                code: (e && e.code) || internal.codes.unknownError,
                message: String((e && e.message) || e),
              }),
          );
        },
      },
    },
  };
});
