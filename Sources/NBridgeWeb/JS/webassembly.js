// WebAssembly: asynchronous compilation needs a host run loop the C API does not drive.
// Evaluated by native.loadDeferred on the first read of `WebAssembly` (web.js), not at every start.
// Takes: the realm's WebAssembly object. Gives: it, with compile, instantiate and their streaming
// forms rejecting.
(function (WebAssembly) {
  'use strict';
  // Its async compile needs a host run loop that JavaScriptCore's C API does not drive: the
  // promises would stay pending forever. Reject at once instead, pointing at the sync API.
  for (const name of ['compile', 'instantiate', 'compileStreaming', 'instantiateStreaming']) {
    if (typeof WebAssembly[name] !== 'function') continue;
    Object.defineProperty(WebAssembly, name, {
      configurable: true,
      writable: true,
      value: function () {
        return Promise.reject(
          new TypeError(
            'WebAssembly.' + name + ' is not available in nbridge (no asynchronous ' +
              'compilation): use new WebAssembly.Module(bytes) and new WebAssembly.Instance(module, imports)',
          ),
        );
      },
    });
  }
  return { WebAssembly };
});
