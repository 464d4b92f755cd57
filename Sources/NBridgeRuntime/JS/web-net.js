// Blob, File, FormData, fetch, Headers, Request, Response, Storage, localStorage and
// sessionStorage: globals whose first touch evaluates their file (blob.js, fetch.js, storage.js),
// so a script that uses none of them parses none of them.
(function (global, internal) {
  'use strict';
  const native = internal.native;
  const exported = {};
  // Each lazy file is a function of (global, internal, exports); it may load another first.
  internal.loadWeb = function loadWeb(file) {
    if (!exported[file]) {
      exported[file] = {};
      native.evaluate(native.source(file), 'nbridge:' + file + '.js')(global, internal, exported[file]);
    }
    return exported[file];
  };
  const classes = {
    blob: ['Blob', 'File', 'FormData'],
    fetch: ['Headers', 'Request', 'Response'],
    storage: ['Storage'],
  };
  const settle = (name, value) =>
    Object.defineProperty(global, name, { value, writable: true, configurable: true, enumerable: false });
  for (const file of Object.keys(classes)) {
    for (const name of classes[file]) {
      Object.defineProperty(global, name, {
        configurable: true,
        enumerable: false,
        get() {
          const value = internal.loadWeb(file)[name];
          settle(name, value);
          return value;
        },
        set(value) {
          settle(name, value);
        },
      });
    }
  }
  // fetch is a plain function: one that loads fetch.js on its first call, then is replaced.
  let fetchImpl;
  settle('fetch', function fetch(input, init = undefined) {
    if (!fetchImpl) fetchImpl = internal.loadWeb('fetch').fetch;
    return fetchImpl(input, init);
  });
  // localStorage and sessionStorage are read-only attributes of the global, as in a page.
  for (const name of ['localStorage', 'sessionStorage']) {
    Object.defineProperty(global, name, {
      configurable: true,
      enumerable: true,
      get() {
        return internal.loadWeb('storage')[name]();
      },
    });
  }
  // The entry script's folder as a file: URL with a trailing slash: the base of relative fetches.
  const setEntry = internal.setEntry;
  internal.setEntry = function (path) {
    setEntry(path);
    const folder = path.slice(0, path.lastIndexOf('/') + 1) || '/';
    internal.entryFolderURL = 'file://' + folder.split('/').map(encodeURIComponent).join('/');
  };
});
