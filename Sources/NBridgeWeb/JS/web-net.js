// Blob, File, FormData, fetch, Headers, Request, Response, Storage, QuotaExceededError,
// localStorage, sessionStorage, MessageChannel, MessagePort and MessageEvent, through lazy.js's lazy
// globals: the first touch of one evaluates its file (blob.js, fetch.js, storage.js, message.js), so
// a script that uses none of them does not even parse them.
// Takes: internal.lazyGlobals (lazy.js), internal.native.loadDeferred.
// Gives: the lazy globals above; internal.loadWeb(file) (a lazy file's exports, loaded once),
//   internal.entryFolderURL (the base of relative fetches, from internal.entry, the entry script's path).
(function (global, internal) {
  'use strict';
  const native = internal.native;
  const exported = {};
  // Each lazy file is a function of (global, internal, exports); it may load another first.
  internal.loadWeb = function loadWeb(file) {
    if (!exported[file]) {
      exported[file] = {};
      native.loadDeferred(file)(global, internal, exported[file]);
    }
    return exported[file];
  };
  // Functions, not arrows, where nothing reads `this`: JavaScriptCore compiles an arrow function
  // at every start for about 9 k instructions more (callgrind, a hello).
  internal.lazyGlobals(['Blob', 'File', 'FormData'], function () {
    return internal.loadWeb('blob');
  });
  internal.lazyGlobals(['fetch', 'Headers', 'Request', 'Response'], function () {
    return internal.loadWeb('fetch');
  });
  internal.lazyGlobals(['Storage', 'QuotaExceededError'], function () {
    return internal.loadWeb('storage');
  });
  internal.lazyGlobals(['MessageChannel', 'MessagePort', 'MessageEvent'], function () {
    return internal.loadWeb('message');
  });
  // Each storage on its own: touching sessionStorage does not open localStorage's file.
  internal.lazyGlobals(['localStorage'], function () {
    return { localStorage: internal.loadWeb('storage').localStorage() };
  });
  internal.lazyGlobals(['sessionStorage'], function () {
    return { sessionStorage: internal.loadWeb('storage').sessionStorage() };
  });
  // The entry script's folder as a file: URL with a trailing slash: the base of relative fetches,
  // worked out on the first fetch, not at every start.
  let entryFolderURL;
  Object.defineProperty(internal, 'entryFolderURL', {
    get() {
      const path = internal.entry;
      if (path === undefined) return undefined;
      const folder = path.slice(0, path.lastIndexOf('/') + 1) || '/';
      return entryFolderURL ??= 'file://' + folder.split('/').map(encodeURIComponent).join('/');
    },
    configurable: true,
  });
});
