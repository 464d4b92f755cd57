// The prelude's own groups built on first touch (lazy.js), so a script that uses neither parses
// neither (a hello's start-up): the nbridge object (bridge.js and the extensions' files such as
// log.js, on the first read of `nbridge`, or when an extension's global asks with
// internal.loadBridge()) and CommonJS (require.js, on the first read of `require` or `load`, or a
// module loader's first import of a CommonJS file). Until then the runtime's hooks need neither.
(function (global, internal) {
  'use strict';
  const native = internal.native;

  const bridge = internal.lazyGlobals(['nbridge'], () => {
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
  // bridge.js replaces this with its own. WKBridgeKit's nbridge.callPauseListener(): a script that
  // never read `nbridge` cannot have set one, unless it assigned its own object (then the accessor is gone).
  internal.lifecycleListener = function (name) {
    if (typeof Object.getOwnPropertyDescriptor(global, 'nbridge')?.get === 'function') return;
    bridge();
    internal.lifecycleListener(name);
  };

  internal.dirname = function (path) {
    const i = path.lastIndexOf('/');
    return i <= 0 ? (i === 0 ? '/' : '.') : path.slice(0, i);
  };
  let commonJS;
  const loadCommonJS = () => (commonJS ??= native.loadDeferred('require')(global, internal));
  internal.requireFile = function (path, text) {
    return loadCommonJS().requireFile(path, text);
  };
  // import() in a script, rewritten by the runtime to $nbridge$import(scriptPath, ...).
  Object.defineProperty(global, '$nbridge$import', {
    value: (path, specifier, options) => native.loader().importFromScript(specifier, options, path),
  });
  internal.setEntry = function setEntry(path) {
    const dir = internal.dirname(path);
    global.__filename = path;
    global.__dirname = dir;
    internal.lazyGlobals(['require', 'load'], () => ({
      require: loadCommonJS().makeRequire(dir),
      load: loadCommonJS().makeLoad(dir),
    }));
  };
});
