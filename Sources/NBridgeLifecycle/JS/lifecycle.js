// WKBridgeKit's nbridge.callPauseListener()/callResumeListener(), when the script defines them:
// the lifecycle extension calls them at `pause` and `resume`, headless through
// lifecycle-headless.js, in a window's page through `__nbridgeLifecycle` (page.js). Run when the
// nbridge object is built.
// Takes: internal.native.reportError. Gives: internal.lifecycleListener.
(function (global, internal) {
  'use strict';
  const native = internal.native;
  function lifecycleListener(name) {
    const target = global.nbridge;
    const listener = target && target['call' + name + 'Listener'];
    if (typeof listener !== 'function') return;
    try {
      listener.call(target);
    } catch (e) {
      native.reportError(e);
    }
  }
  internal.lifecycleListener = lifecycleListener;
});
