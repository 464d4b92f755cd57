// The module loader's resolution: file: URLs and paths, and the manifest's import map
// ("imports" and "scopes"), a specifier resolved against its importer's URL.
// Takes from internal: importMap (the manifest's, with its folder as base).
// Gives to modules: pathToURL, urlToPath, splitSuffix, resolve.
(function (_global, internal, modules) {
  'use strict';

  // Percent-encodes what a URL cannot hold as is (string operations: a regular expression
  // costs its compilation at every start).
  function encodeWith(text, special) {
    let out = '';
    let from = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c > 0x20 && c < 0x7f && !special.includes(text[i])) continue;
      const end = c >= 0xd800 && c <= 0xdbff && i + 1 < text.length ? i + 2 : i + 1;
      out += text.slice(from, i) + encodeURIComponent(text.slice(i, end));
      from = end;
      i = end - 1;
    }
    return from === 0 ? text : out + text.slice(from);
  }
  function encodePath(p) {
    return encodeWith(p, '"<>`{}|\\^%?#');
  }
  function encodeSpecifier(s) {
    return encodeWith(s, '"<>`{}|\\^');
  }
  function pathToURL(path) {
    return 'file://' + encodePath(path);
  }
  function splitSuffix(url) {
    const q = url.indexOf('?');
    const h = url.indexOf('#');
    const i = q < 0 ? h : h < 0 ? q : Math.min(q, h);
    return i < 0 ? [url, ''] : [url.slice(0, i), url.slice(i)];
  }
  function urlToPath(url) {
    const [base] = splitSuffix(url);
    try {
      return decodeURIComponent(base.slice('file://'.length));
    } catch {
      return base.slice('file://'.length);
    }
  }
  function normalize(path) {
    const out = [];
    const parts = path.split('/');
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i];
      if (part === '.' || (part === '' && i > 0 && i < parts.length - 1)) continue;
      if (part === '..') {
        if (out.length > 1) out.pop();
        continue;
      }
      out.push(part);
    }
    if (parts.length > 1 && (parts[parts.length - 1] === '.' || parts[parts.length - 1] === '..')) out.push('');
    const joined = out.join('/');
    return joined.startsWith('/') ? joined : '/' + joined;
  }
  // A URL for a specifier that is one (absolute, or relative to `base`); null for a bare specifier.
  function urlLike(specifier, base) {
    if (specifier.startsWith('file:')) {
      const [head, suffix] = splitSuffix(specifier.replace(/^file:(\/\/)?/, ''));
      return 'file://' + normalize(head.startsWith('/') ? head : '/' + head) + suffix;
    }
    if (specifier.startsWith('/') || specifier.startsWith('./') || specifier.startsWith('../')) {
      const [head, suffix] = splitSuffix(encodeSpecifier(specifier));
      const [basePath] = splitSuffix(base.slice('file://'.length));
      const dir = basePath.slice(0, basePath.lastIndexOf('/') + 1);
      return 'file://' + normalize(head.startsWith('/') ? head : dir + head) + suffix;
    }
    if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(specifier) && !specifier.startsWith('nbridge:')) {
      throw new TypeError("Cannot load '" + specifier + "': nbridge loads file: URLs and paths only");
    }
    return null;
  }

  // MARK: The import map (manifest "imports" and "scopes")

  const map = { imports: [], scopes: [] };
  function sortedEntries(object, base) {
    return Object.keys(object || {}).map((
      key,
    ) => [urlLike(key, base) || key, urlLike(object[key], base) || object[key]])
      .sort((a, b) => b[0].length - a[0].length);
  }
  if (internal.importMap) {
    const base = pathToURL(internal.importMap.base + '/');
    map.imports = sortedEntries(internal.importMap.imports, base);
    map.scopes = Object.keys(internal.importMap.scopes || {}).map((key) => [
      urlLike(key, base) || key,
      sortedEntries(internal.importMap.scopes[key], base),
    ]).sort((a, b) => b[0].length - a[0].length);
  }
  function matchImports(normalized, entries) {
    for (const [key, address] of entries) {
      if (key === normalized) return address;
      if (key.endsWith('/') && normalized.startsWith(key)) {
        return address + encodeSpecifier(normalized.slice(key.length));
      }
    }
    return null;
  }
  // Resolutions by folder and specifier: a graph asks for the same few files many times.
  const resolved = new Map();
  function resolve(specifier, base) {
    const folder = base.slice(0, base.lastIndexOf('/') + 1);
    const key = folder + '\n' + specifier;
    let found = resolved.get(key);
    if (found === undefined) {
      found = resolveUncached(specifier, base);
      if (map.scopes.length === 0) resolved.set(key, found);
    }
    return found;
  }
  function resolveUncached(specifier, base) {
    const asURL = urlLike(specifier, base);
    const normalized = asURL || specifier;
    for (const [scope, entries] of map.scopes) {
      if (scope === base || (scope.endsWith('/') && base.startsWith(scope))) {
        const found = matchImports(normalized, entries);
        if (found) return found;
      }
    }
    const found = matchImports(normalized, map.imports);
    if (found) return found;
    if (asURL) return asURL;
    if (specifier.startsWith('nbridge:')) {
      throw new TypeError("Unknown built-in module '" + specifier + "' (nbridge: specifiers are reserved)");
    }
    throw new TypeError(
      "Cannot resolve the bare specifier '" + specifier + '\': map it in the manifest\'s "imports" (nbridge.json)',
    );
  }

  Object.assign(modules, { pathToURL, urlToPath, splitSuffix, resolve });
});
