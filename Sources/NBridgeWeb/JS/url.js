// URL and URLSearchParams by the WHATWG URL Standard, over the parser in url-parser.js; the
// application/x-www-form-urlencoded list a URLSearchParams keeps in sync with its URL.
// Takes: internal.native.loadDeferred('url-parser'), internal.platformObjects (adds URL's and
// URLSearchParams' prototypes).
// Gives (its function's result): { URL, URLSearchParams }.
(function (global, internal) {
  'use strict';
  const {
    FAILURE,
    FRAGMENT,
    HOST,
    HOSTNAME,
    PATH_START,
    PORT,
    QUERY,
    SCHEME_START,
    formSet,
    hasOpaquePath,
    origin,
    parse,
    parseURL,
    pathText,
    percentDecode,
    percentEncode,
    serialize,
    stripTrailingSpaces,
    userinfoSet,
  } = internal.native.loadDeferred('url-parser')(global, internal);
  const usv = (v) => `${v}`.toWellFormed();

  // application/x-www-form-urlencoded.
  const plus = /\+/g;
  function parseForm(input) {
    const list = [];
    for (const sequence of input.split('&')) {
      if (sequence === '') continue;
      const at = sequence.indexOf('=');
      const name = at < 0 ? sequence : sequence.slice(0, at);
      const value = at < 0 ? '' : sequence.slice(at + 1);
      list.push([percentDecode(name.replace(plus, ' ')), percentDecode(value.replace(plus, ' '))]);
    }
    return list;
  }
  const serializeForm = (list) =>
    list.map(([n, v]) => percentEncode(n, formSet, true) + '=' + percentEncode(v, formSet, true)).join('&');

  // (self) => { url, params } for a URL object (a private field: cheaper than a WeakMap).
  let recordOf;
  const paramsState = new WeakMap();
  const paramsOf = (self) => {
    const s = paramsState.get(self);
    if (!s) throw new TypeError('Illegal invocation: not a URLSearchParams');
    return s;
  };
  let making = null;
  // The last base parsed, kept: a page resolves many URLs against one base (records are never
  // changed in place once parsed; a URL object's record is its own).
  const bases = new Map();
  function parseBase(text) {
    let record = bases.get(text);
    if (record !== undefined) return record;
    record = parseURL(text, null);
    if (record !== FAILURE) {
      if (bases.size >= 32) bases.delete(bases.keys().next().value);
      bases.set(text, record);
    }
    return record;
  }

  class URL {
    #r;
    static {
      recordOf = (self) => {
        if (self === null || typeof self !== 'object' || !(#r in self)) {
          throw new TypeError('Illegal invocation: not a URL');
        }
        return self.#r;
      };
    }
    constructor(url, base = undefined) {
      if (arguments.length === 0) throw new TypeError("Failed to construct 'URL': 1 argument required");
      let baseRecord = null;
      if (base !== undefined) {
        baseRecord = parseBase(usv(base));
        if (baseRecord === FAILURE) throw new TypeError("Failed to construct 'URL': Invalid base URL: " + base);
      }
      const text = usv(url);
      const record = parseURL(text, baseRecord);
      if (record === FAILURE) throw new TypeError("Failed to construct 'URL': Invalid URL: " + url);
      this.#r = { url: record, params: null };
    }
    static canParse(url, base = undefined) {
      if (arguments.length === 0) throw new TypeError("Failed to execute 'canParse': 1 argument required");
      let baseRecord = null;
      if (base !== undefined) {
        baseRecord = parseBase(usv(base));
        if (baseRecord === FAILURE) return false;
      }
      const text = usv(url);
      return parseURL(text, baseRecord) !== FAILURE;
    }
    static parse(url, base = undefined) {
      if (arguments.length === 0) throw new TypeError("Failed to execute 'parse': 1 argument required");
      try {
        return new URL(url, base);
      } catch {
        return null;
      }
    }
    get href() {
      return serialize(recordOf(this).url);
    }
    set href(value) {
      const r = recordOf(this);
      const record = parse(usv(value));
      if (record === FAILURE) throw new TypeError("Failed to set 'href': Invalid URL: " + value);
      r.url = record;
      if (r.params) paramsOf(r.params).list = record.query === null ? [] : parseForm(record.query);
    }
    toString() {
      return serialize(recordOf(this).url);
    }
    toJSON() {
      return serialize(recordOf(this).url);
    }
    get origin() {
      return origin(recordOf(this).url);
    }
    get protocol() {
      return recordOf(this).url.scheme + ':';
    }
    set protocol(value) {
      const url = recordOf(this).url;
      parse(usv(value) + ':', null, url, SCHEME_START);
    }
    get username() {
      return recordOf(this).url.username;
    }
    set username(value) {
      const url = recordOf(this).url;
      if (url.host === null || url.host === '' || url.scheme === 'file') return;
      url.username = percentEncode(usv(value), userinfoSet);
    }
    get password() {
      return recordOf(this).url.password;
    }
    set password(value) {
      const url = recordOf(this).url;
      if (url.host === null || url.host === '' || url.scheme === 'file') return;
      url.password = percentEncode(usv(value), userinfoSet);
    }
    get host() {
      const url = recordOf(this).url;
      if (url.host === null) return '';
      return url.port === null ? url.host : url.host + ':' + url.port;
    }
    set host(value) {
      const url = recordOf(this).url;
      if (!hasOpaquePath(url)) parse(usv(value), null, url, HOST);
    }
    get hostname() {
      const host = recordOf(this).url.host;
      return host === null ? '' : host;
    }
    set hostname(value) {
      const url = recordOf(this).url;
      if (!hasOpaquePath(url)) parse(usv(value), null, url, HOSTNAME);
    }
    get port() {
      const port = recordOf(this).url.port;
      return port === null ? '' : String(port);
    }
    set port(value) {
      const url = recordOf(this).url;
      if (url.host === null || url.host === '' || url.scheme === 'file') return;
      const text = usv(value);
      if (text === '') {
        url.port = null;
        return;
      }
      parse(text, null, url, PORT);
    }
    get pathname() {
      return pathText(recordOf(this).url);
    }
    set pathname(value) {
      const url = recordOf(this).url;
      if (hasOpaquePath(url)) return;
      url.path = [];
      parse(usv(value), null, url, PATH_START);
    }
    get search() {
      const query = recordOf(this).url.query;
      return query === null || query === '' ? '' : '?' + query;
    }
    set search(value) {
      const r = recordOf(this);
      const url = r.url;
      let text = usv(value);
      if (text === '') {
        url.query = null;
        if (r.params) paramsOf(r.params).list = [];
        stripTrailingSpaces(url);
        return;
      }
      if (text[0] === '?') text = text.slice(1);
      url.query = '';
      parse(text, null, url, QUERY);
      if (r.params) paramsOf(r.params).list = parseForm(text);
    }
    get searchParams() {
      const r = recordOf(this);
      if (!r.params) {
        making = this;
        try {
          r.params = new URLSearchParams();
        } finally {
          making = null;
        }
        paramsOf(r.params).list = r.url.query === null ? [] : parseForm(r.url.query);
      }
      return r.params;
    }
    get hash() {
      const fragment = recordOf(this).url.fragment;
      return fragment === null || fragment === '' ? '' : '#' + fragment;
    }
    set hash(value) {
      const url = recordOf(this).url;
      let text = usv(value);
      if (text === '') {
        url.fragment = null;
        stripTrailingSpaces(url);
        return;
      }
      if (text[0] === '#') text = text.slice(1);
      url.fragment = '';
      parse(text, null, url, FRAGMENT);
    }
  }
  Object.defineProperty(URL.prototype, Symbol.toStringTag, { value: 'URL', configurable: true });
  for (const name of ['href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname', 'port']) {
    Object.defineProperty(URL.prototype, name, { enumerable: true });
  }
  for (const name of ['pathname', 'search', 'searchParams', 'hash', 'toString', 'toJSON']) {
    Object.defineProperty(URL.prototype, name, { enumerable: true });
  }

  function update(params) {
    const s = paramsState.get(params);
    if (!s.owner) return;
    const r = recordOf(s.owner);
    const text = serializeForm(s.list);
    r.url.query = text === '' ? null : text;
    if (text === '') stripTrailingSpaces(r.url);
  }

  const iteratorProto = Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]()));
  const URLSearchParamsIterator = Object.create(iteratorProto, {
    next: {
      value: function next() {
        const s = this && iterators.get(this);
        if (!s) throw new TypeError('Illegal invocation: not a URLSearchParams iterator');
        const list = paramsState.get(s.params).list;
        if (s.index >= list.length) return { value: undefined, done: true };
        const [name, value] = list[s.index++];
        return { value: s.kind === 'keys' ? name : s.kind === 'values' ? value : [name, value], done: false };
      },
      writable: true,
      enumerable: true,
      configurable: true,
    },
    [Symbol.toStringTag]: { value: 'URLSearchParams Iterator', configurable: true },
  });
  const iterators = new WeakMap();
  const iterate = (params, kind) => {
    paramsOf(params);
    const it = Object.create(URLSearchParamsIterator);
    iterators.set(it, { params, kind, index: 0 });
    return it;
  };

  class URLSearchParams {
    constructor(init = '') {
      const s = { list: [], owner: making };
      if (init !== null && (typeof init === 'object' || typeof init === 'function')) {
        const method = init[Symbol.iterator];
        if (method !== undefined && method !== null) {
          if (typeof method !== 'function') {
            throw new TypeError("Failed to construct 'URLSearchParams': the init's iterator is not a function");
          }
          for (const pair of init) {
            if (pair === null || (typeof pair !== 'object' && typeof pair !== 'function')) {
              throw new TypeError("Failed to construct 'URLSearchParams': a pair is not a sequence");
            }
            const items = Array.from(pair);
            if (items.length !== 2) {
              throw new TypeError("Failed to construct 'URLSearchParams': a pair must have exactly 2 items");
            }
            s.list.push([usv(items[0]), usv(items[1])]);
          }
        } else {
          for (const key of Reflect.ownKeys(init)) {
            const d = Reflect.getOwnPropertyDescriptor(init, key);
            if (!d || !d.enumerable) continue;
            if (typeof key === 'symbol') {
              throw new TypeError("Failed to construct 'URLSearchParams': a key is a symbol");
            }
            const name = usv(key), value = usv(init[key]);
            const pair = s.list.find(([k]) => k === name);
            if (pair) pair[1] = value;
            else s.list.push([name, value]);
          }
        }
      } else {
        let text = usv(init);
        if (text[0] === '?') text = text.slice(1);
        s.list = parseForm(text);
      }
      paramsState.set(this, s);
    }
    get size() {
      return paramsOf(this).list.length;
    }
    append(name, value) {
      if (arguments.length < 2) throw new TypeError("Failed to execute 'append': 2 arguments required");
      paramsOf(this).list.push([usv(name), usv(value)]);
      update(this);
    }
    delete(name, value = undefined) {
      if (arguments.length < 1) throw new TypeError("Failed to execute 'delete': 1 argument required");
      const s = paramsOf(this);
      const n = usv(name);
      const v = value === undefined ? undefined : usv(value);
      s.list = s.list.filter(([k, x]) => !(k === n && (v === undefined || x === v)));
      update(this);
    }
    get(name) {
      if (arguments.length < 1) throw new TypeError("Failed to execute 'get': 1 argument required");
      const n = usv(name);
      const pair = paramsOf(this).list.find(([k]) => k === n);
      return pair ? pair[1] : null;
    }
    getAll(name) {
      if (arguments.length < 1) throw new TypeError("Failed to execute 'getAll': 1 argument required");
      const n = usv(name);
      return paramsOf(this).list.filter(([k]) => k === n).map(([, v]) => v);
    }
    has(name, value = undefined) {
      if (arguments.length < 1) throw new TypeError("Failed to execute 'has': 1 argument required");
      const n = usv(name);
      const v = value === undefined ? undefined : usv(value);
      return paramsOf(this).list.some(([k, x]) => k === n && (v === undefined || x === v));
    }
    set(name, value) {
      if (arguments.length < 2) throw new TypeError("Failed to execute 'set': 2 arguments required");
      const s = paramsOf(this);
      const n = usv(name), v = usv(value);
      const at = s.list.findIndex(([k]) => k === n);
      if (at < 0) s.list.push([n, v]);
      else {
        s.list[at] = [n, v];
        s.list = s.list.filter(([k], i) => i <= at || k !== n);
      }
      update(this);
    }
    sort() {
      const s = paramsOf(this);
      s.list = s.list.map((pair, i) => [pair, i]).sort((
        [a, i],
        [b, j],
      ) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : i - j))
        .map(([pair]) => pair);
      update(this);
    }
    forEach(callback, thisArg = undefined) {
      if (typeof callback !== 'function') {
        throw new TypeError("Failed to execute 'forEach': the callback is not a function");
      }
      const s = paramsOf(this);
      for (let i = 0; i < s.list.length; i++) callback.call(thisArg, s.list[i][1], s.list[i][0], this);
    }
    keys() {
      return iterate(this, 'keys');
    }
    values() {
      return iterate(this, 'values');
    }
    entries() {
      return iterate(this, 'entries');
    }
    toString() {
      return serializeForm(paramsOf(this).list);
    }
  }
  Object.defineProperty(URLSearchParams.prototype, Symbol.iterator, {
    value: URLSearchParams.prototype.entries,
    writable: true,
    configurable: true,
  });
  Object.defineProperty(URLSearchParams.prototype, Symbol.toStringTag, {
    value: 'URLSearchParams',
    configurable: true,
  });
  internal.platformObjects.add(URL.prototype);
  internal.platformObjects.add(URLSearchParams.prototype);
  return { URL, URLSearchParams };
});
