// CommonJS require() and load() for scripts, by relative or absolute path (no packages);
// require() of an ES module (.mjs) evaluates it synchronously (Node 22's rule). Evaluated on first
// use (deferred.js); returns { makeRequire, makeLoad, requireFile }.
// Takes from internal: native (readFile, evaluate, loader), dirname. Gives to internal: nothing.
(function (_global, internal) {
  'use strict';
  const native = internal.native;
  const dirname = internal.dirname;
  function resolvePath(base, p) {
    const parts = (p.startsWith('/') ? p : base + '/' + p).split('/');
    const stack = [];
    for (const part of parts) {
      if (part === '' || part === '.') continue;
      if (part === '..') stack.pop();
      else stack.push(part);
    }
    return '/' + stack.join('/');
  }
  const modules = new Map();
  function findFile(dir, request) {
    const path = resolvePath(dir, request);
    for (const candidate of [path, path + '.js', path + '.json', path + '/index.js']) {
      const text = native.readFile(candidate);
      if (text !== undefined) return { path: candidate, text };
    }
    throw new Error(
      "Cannot find module '" + request + "' (looked for " + path + ', ' + path + '.js, ' + path + '.json, ' + path +
        '/index.js)',
    );
  }
  function makeRequire(dir) {
    function require(request) {
      if (typeof request !== 'string' || !request) throw new TypeError('require: the path must be a non-empty string');
      if (!request.startsWith('.') && !request.startsWith('/')) {
        throw new Error(
          "Cannot find module '" + request + "': nbridge loads files by relative or absolute path only (no packages)",
        );
      }
      const file = findFile(dir, request);
      return requireFile(file.path, file.text);
    }
    return require;
  }
  function requireFile(path, text) {
    const cached = modules.get(path);
    if (cached) return cached.exports;
    if (path.endsWith('.mjs') || path.endsWith('.mts')) return native.loader().require(path);
    const source = text === undefined ? native.readFile(path) : text;
    if (source === undefined) throw new Error("Cannot find module '" + path + "'");
    const module = { exports: {}, filename: path, loaded: false };
    modules.set(path, module);
    try {
      if (path.endsWith('.json')) {
        module.exports = JSON.parse(source);
      } else {
        const wrapper = native.evaluate(
          // A hashbang is a comment only where the file starts: the wrapper's head goes there.
          '(function (exports, require, module, __filename, __dirname) {' +
            (source.startsWith('#!') ? '//' + source.slice(2) : source) + '\n})',
          path,
        );
        wrapper.call(module.exports, module.exports, makeRequire(dirname(path)), module, path, dirname(path));
      }
    } catch (e) {
      // As in Node: a module that throws while loading is not kept, so the next require runs it again.
      modules.delete(path);
      throw e;
    }
    module.loaded = true;
    return module.exports;
  }
  function makeLoad(dir) {
    return function load(path) {
      if (typeof path !== 'string' || !path) throw new TypeError('load: the path must be a non-empty string');
      const file = findFile(dir, path);
      return native.evaluate(file.text, file.path);
    };
  }

  return { makeRequire, makeLoad, requireFile };
});
