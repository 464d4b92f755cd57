// CommonJS for scripts, built on first touch (lazy.js): require.js is evaluated on the first read of
// `require` or `load`, or the module loader's first import of a CommonJS file, so a script that uses
// neither parses neither (a hello's start-up). Also `import()` in a script, which ScriptTransform
// rewrites to $nbridge$import(scriptPath, ...), handed to the module loader.
// Takes: internal.native (loadDeferred, loader), internal.lazyGlobals (lazy.js).
// Takes internal.entry, the entry script's path, too.
// Gives: internal.dirname, internal.requireFile (the runtime's hook, through hooks.js), global
//   __filename, __dirname, lazy require and load (from the entry's folder), $nbridge$import.
(function (global, internal) {
  'use strict';
  const native = internal.native;
  // Functions, not arrows, where nothing reads `this`: JavaScriptCore parses and compiles an arrow
  // function at every start for about 8 k instructions more.
  internal.dirname = function (path) {
    const i = path.lastIndexOf('/');
    return i <= 0 ? (i === 0 ? '/' : '.') : path.slice(0, i);
  };
  let commonJS;
  function loadCommonJS() {
    return (commonJS ??= native.loadDeferred('require')(global, internal));
  }
  internal.requireFile = function (path, text) {
    return loadCommonJS().requireFile(path, text);
  };
  Object.defineProperty(global, '$nbridge$import', {
    value: (path, specifier, options) => native.loader().importFromScript(specifier, options, path),
  });
  // In the prelude's body, not an internal.onEntry handler: JavaScriptCore compiles each function
  // it first calls (about 60 k instructions at every start, callgrind).
  const entry = internal.entry;
  const dir = internal.dirname(entry);
  global.__filename = entry;
  global.__dirname = dir;
  internal.lazyGlobals(['require', 'load'], function () {
    return { require: loadCommonJS().makeRequire(dir), load: loadCommonJS().makeLoad(dir) };
  });
});
