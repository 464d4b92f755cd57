// CommonJS for scripts, built on first touch (lazy.js): require.js is evaluated on the first read of
// `require` or `load`, or the module loader's first import of a CommonJS file, so a script that uses
// neither parses neither (a hello's start-up). Also `import()` in a script, which ScriptTransform
// rewrites to $nbridge$import(scriptPath, ...), handed to the module loader.
// Takes: internal.native (loadDeferred, loader), internal.lazyGlobals (lazy.js).
// Gives: internal.dirname, internal.requireFile (the runtime's hook, through hooks.js), an entry
//   handler on internal.onEntry (global __filename, __dirname, and lazy require, load);
//   global $nbridge$import.
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
  (internal.onEntry ??= []).push(function entryGlobals(path) {
    const dir = internal.dirname(path);
    global.__filename = path;
    global.__dirname = dir;
    internal.lazyGlobals(['require', 'load'], function () {
      return { require: loadCommonJS().makeRequire(dir), load: loadCommonJS().makeLoad(dir) };
    });
  });
});
