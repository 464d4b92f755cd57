// NBridgeKit's Android interface, for pages written for it (`pageProtocol: "nbridgekit"` in the
// manifest): a global `nBridge` whose callFromWeb(json) posts the command to the window, which
// answers by evaluating the page's own nbridge.resolvePromise/finallyResolvePromise. Offered only
// when the manifest asks: WKBridgeKit's nbridge.js, too, takes the Android path when it finds
// `nBridge`, and would then get NBridgeKit's answers (Base64 preference values).
(function (global, internal) {
  'use strict';
  if (!internal.nBridge) return;
  const handler = global.webkit.messageHandlers.nbridge;
  const nBridge = Object.freeze({
    callFromWeb(command) {
      handler.postMessage('k' + String(command));
    },
    onBridgeReady() {},
  });
  Object.defineProperty(global, 'nBridge', { value: nBridge, configurable: false, enumerable: false, writable: false });
});
