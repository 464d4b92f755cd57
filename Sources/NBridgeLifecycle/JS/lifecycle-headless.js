// The headless side of WKBridgeKit's nbridge.callPauseListener()/callResumeListener(): the
// lifecycle extension calls the function handed to native.lifecycleListens at `pause` and
// `resume`. lifecycle.js replaces internal.lifecycleListener once the nbridge object is built;
// before that, a script that never read `nbridge` cannot have set a listener, unless it assigned
// its own object (then the accessor is gone): that builds the nbridge object, which keeps it.
// Takes: internal.native.lifecycleListens, internal.loadBridge (deferred.js).
// Gives: internal.lifecycleListener (until lifecycle.js replaces it).
(function (global, internal) {
  'use strict';
  internal.lifecycleListener = (name) => {
    if (typeof Object.getOwnPropertyDescriptor(global, 'nbridge')?.get === 'function') return;
    internal.loadBridge();
    internal.lifecycleListener(name);
  };
  internal.native.lifecycleListens((name) => internal.lifecycleListener(name));
});
