// Headless stand-in for WKWebView's message handler, so WKBridgeKit's own JS core runs
// unchanged: it posts JSON commands and is answered through its nbridge.resolvePromise.
// Evaluated on the first read of `webkit` (page-shims.js), after the nbridge object is built.
// Takes: internal.native.print, internal.callBuiltin, internal.describe,
//   internal.NBridgeError, internal.codes (bridge.js). Gives: the `webkit` object it returns.
(function (global, internal) {
  'use strict';
  const native = internal.native;
  const { callBuiltin, describe } = internal;
  // WKBridgeKit's own JS core posts JSON commands to a WKWebView message handler and is answered
  // through its own nbridge.resolvePromise(promiseId, data, error).
  function answer(promiseId, data, error) {
    const target = global.nbridge;
    if (target && typeof target.resolvePromise === 'function') target.resolvePromise(promiseId, data, error);
  }
  const unreadable = (e) =>
    Promise.reject(
      new internal.NBridgeError(
        internal.codes.invalidParameter,
        'WKBridge.postMessage: the command could not be read (' + describe(e) + ')',
      ),
    );
  return {
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
          let promiseId, promise, ready;
          // A command object (not text) may be a Proxy or have getters: what throws while it is read
          // is answered as a rejection, as a bad option is.
          try {
            promiseId = command.promiseId;
            ready = command.command === 'onBridgeReady';
          } catch (e) {
            promise = unreadable(e);
          }
          if (ready) {
            if (promiseId !== undefined) answer(promiseId, null, null);
            return;
          }
          if (!promise) {
            try {
              promise = callBuiltin(String(command.service), String(command.action), command.option);
            } catch (e) {
              promise = unreadable(e);
            }
          }
          promise.then(
            (data) => answer(promiseId, data === undefined ? null : data, null),
            (e) =>
              answer(promiseId, (e && e.code) || internal.codes.unknownError, {
                code: (e && e.code) || internal.codes.unknownError,
                message: String((e && e.message) || e),
              }),
          );
        },
      },
    },
  };
});
