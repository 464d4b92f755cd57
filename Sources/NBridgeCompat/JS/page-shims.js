// A headless run looks like a page: window/self are the global object, dialogs print, and
// WKBridgeKit's webkit.messageHandlers.WKBridge is there (wkbridge.js, evaluated with the
// nbridge object on the first read of `webkit`).
// Takes: internal.native.print, internal.native.loadDeferred, internal.lazyGlobals (lazy.js),
//   internal.loadBridge (deferred.js). Gives: global window, self, alert, confirm, prompt, webkit.
(function (global, internal) {
  'use strict';
  const native = internal.native;
  global.window = global;
  global.self = global;
  global.alert = (message) => {
    native.print(1, '[alert] ' + (message === undefined ? '' : String(message)) + '\n');
  };
  global.confirm = (message) => {
    native.print(1, '[confirm] ' + (message === undefined ? '' : String(message)) + ' -> false\n');
    return false;
  };
  global.prompt = (message) => {
    native.print(1, '[prompt] ' + (message === undefined ? '' : String(message)) + ' -> null\n');
    return null;
  };
  // A function, not an arrow (where nothing reads `this` and a script does not see it):
  // JavaScriptCore compiles an arrow function at every start for about 9 k instructions more.
  internal.lazyGlobals(['webkit'], function () {
    internal.loadBridge();
    return { webkit: native.loadDeferred('wkbridge')(global, internal) };
  });
});
