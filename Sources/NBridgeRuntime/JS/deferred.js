// The nbridge object built on first touch (lazy.js), so a script that does not use it does not parse
// it (a hello's start-up): bridge.js and the extensions' files such as log.js, on the first read of
// `nbridge`, or when an extension's global asks with internal.loadBridge(). Until then the
// runtime's hooks need none of it.
(function (global, internal) {
  'use strict';
  const native = internal.native;

  const bridge = internal.lazyGlobals(['nbridge'], function () {
    // A value the script assigned first stays (WKBridgeKit's page script sets its own nbridge).
    const own = Object.getOwnPropertyDescriptor(global, 'nbridge');
    // internal.services, codes and messages: asked for here, not built at every start.
    Object.assign(internal, native.bridgeTables());
    for (const file of ['bridge', ...internal.nbridgeScripts]) native.loadDeferred(file)(global, internal);
    if (own && !own.get) Object.defineProperty(global, 'nbridge', own);
    return {};
  });
  // For an extension's global that needs bridge.js's internals (WKBridgeKit's `webkit`).
  internal.loadBridge = bridge;
});
