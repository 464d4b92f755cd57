// WKBridgeKit's nbridge.callPauseListener()/callResumeListener() in a window's page, when its
// script defines them: the lifecycle extension calls them at `pause` and `resume` through
// `__nbridgeLifecycle` (page.js); a headless run's are called from Swift (LifecycleExtension).
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
