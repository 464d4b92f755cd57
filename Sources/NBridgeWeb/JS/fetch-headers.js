// Headers (the Fetch standard): names and values checked as byte strings, the guards that
// refuse or ignore forbidden request and response headers, "sort and combine", and the live
// pair iterator.
// Takes: nothing.
// Gives (exports, for fetch-request.js and fetch.js): Headers, makeHeaders, fillHeaders, headerState, getHeader, token, forbiddenMethodOverride, forbiddenResponse.
(function (_global, _internal, exports) {
  'use strict';
  const token = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
  const forbiddenRequest = new Set([
    'accept-charset',
    'accept-encoding',
    'access-control-request-headers',
    'access-control-request-method',
    'connection',
    'content-length',
    'cookie',
    'cookie2',
    'date',
    'dnt',
    'expect',
    'host',
    'keep-alive',
    'origin',
    'referer',
    'set-cookie',
    'te',
    'trailer',
    'transfer-encoding',
    'upgrade',
    'via',
  ]);
  const forbiddenMethodOverride = new Set(['CONNECT', 'TRACE', 'TRACK']);
  function isForbiddenRequestHeader(name, value) {
    if (forbiddenRequest.has(name) || name.startsWith('proxy-') || name.startsWith('sec-')) return true;
    if (name === 'x-http-method' || name === 'x-http-method-override' || name === 'x-method-override') {
      return value.split(',').some((m) => forbiddenMethodOverride.has(m.trim().toUpperCase()));
    }
    return false;
  }
  const forbiddenResponse = (name) => name === 'set-cookie' || name === 'set-cookie2';

  function headerName(name, method) {
    name = String(name);
    if (!token.test(name)) throw new TypeError('Headers.' + method + ': "' + name + '" is not a valid header name');
    return name;
  }
  function headerValue(value, method) {
    value = String(value).replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
    let bad = false;
    for (let i = 0; i < value.length && !bad; i++) {
      const c = value.charCodeAt(i);
      bad = c === 0 || c === 10 || c === 13 || c > 255;
    }
    if (bad) {
      throw new TypeError('Headers.' + method + ': "' + value + '" is not a valid header value');
    }
    return value;
  }

  const headerState = new WeakMap(); // Headers -> { list: [[name, value]], guard }
  function hs(headers, method) {
    const s = headerState.get(headers);
    if (!s) throw new TypeError('Headers.' + method + ': the receiver is not a Headers');
    return s;
  }
  // Whether a change to `name` is ignored or refused by the headers' guard.
  function guarded(s, name, value, method) {
    if (s.guard === 'immutable') throw new TypeError('Headers.' + method + ': the headers are immutable');
    const lower = name.toLowerCase();
    if (s.guard === 'request' && isForbiddenRequestHeader(lower, value)) return true;
    if (s.guard === 'response' && forbiddenResponse(lower)) return true;
    return false;
  }
  function appendHeader(s, name, value) {
    name = headerName(name, 'append');
    value = headerValue(value, 'append');
    if (guarded(s, name, value, 'append')) return;
    s.list.push([name, value]);
  }
  function fillHeaders(s, init) {
    if (init === undefined || init === null) {
      if (init === null) throw new TypeError('Headers: init must be a sequence or a record, not null');
      return;
    }
    if (typeof init !== 'object' && typeof init !== 'function') {
      throw new TypeError('Headers: init must be a sequence or a record');
    }
    const iterator = init[Symbol.iterator];
    if (iterator !== undefined && iterator !== null) {
      if (typeof iterator !== 'function') throw new TypeError('Headers: init[Symbol.iterator] is not a function');
      for (const pair of init) {
        if (typeof pair !== 'object' || pair === null || typeof pair[Symbol.iterator] !== 'function') {
          throw new TypeError('Headers: each header must be a [name, value] pair');
        }
        const items = [...pair];
        if (items.length !== 2) throw new TypeError('Headers: each header must be a [name, value] pair');
        appendHeader(s, items[0], items[1]);
      }
      return;
    }
    for (const key of Reflect.ownKeys(init)) {
      const desc = Reflect.getOwnPropertyDescriptor(init, key);
      if (desc === undefined || !desc.enumerable) continue;
      if (typeof key === 'symbol') throw new TypeError('Headers: a record key must be a string');
      appendHeader(s, key, init[key]);
    }
  }
  // The standard's "sort and combine": lower-cased names in order, values joined by ', ',
  // except each set-cookie on its own.
  function sortAndCombine(list) {
    const names = [...new Set(list.map(([n]) => n.toLowerCase()))].sort();
    const out = [];
    for (const name of names) {
      if (name === 'set-cookie') {
        for (const [n, v] of list) if (n.toLowerCase() === name) out.push([name, v]);
      } else {
        out.push([name, list.filter(([n]) => n.toLowerCase() === name).map(([, v]) => v).join(', ')]);
      }
    }
    return out;
  }
  function getHeader(list, name) {
    const values = list.filter(([n]) => n.toLowerCase() === name).map(([, v]) => v);
    return values.length ? values.join(', ') : null;
  }

  class Headers {
    constructor(init = undefined) {
      const s = { list: [], guard: 'none' };
      headerState.set(this, s);
      fillHeaders(s, init);
    }
    append(name, value) {
      const s = hs(this, 'append');
      if (arguments.length < 2) throw new TypeError('Headers.append: 2 arguments required');
      appendHeader(s, name, value);
    }
    delete(name) {
      const s = hs(this, 'delete');
      name = headerName(name, 'delete').toLowerCase();
      if (guarded(s, name, '', 'delete')) return;
      s.list = s.list.filter(([n]) => n.toLowerCase() !== name);
    }
    get(name) {
      return getHeader(hs(this, 'get').list, headerName(name, 'get').toLowerCase());
    }
    getSetCookie() {
      return hs(this, 'getSetCookie').list.filter(([n]) => n.toLowerCase() === 'set-cookie').map(([, v]) => v);
    }
    has(name) {
      name = headerName(name, 'has').toLowerCase();
      return hs(this, 'has').list.some(([n]) => n.toLowerCase() === name);
    }
    set(name, value) {
      const s = hs(this, 'set');
      if (arguments.length < 2) throw new TypeError('Headers.set: 2 arguments required');
      name = headerName(name, 'set');
      value = headerValue(value, 'set');
      if (guarded(s, name, value, 'set')) return;
      const lower = name.toLowerCase();
      const index = s.list.findIndex(([n]) => n.toLowerCase() === lower);
      if (index < 0) {
        s.list.push([name, value]);
      } else {
        s.list[index] = [s.list[index][0], value];
        s.list = s.list.filter(([n], i) => i <= index || n.toLowerCase() !== lower);
      }
    }
    forEach(callback, thisArg = undefined) {
      if (typeof callback !== 'function') throw new TypeError('Headers.forEach: the callback must be a function');
      const s = hs(this, 'forEach');
      for (let i = 0;; i++) {
        const pairs = sortAndCombine(s.list);
        if (i >= pairs.length) return;
        callback.call(thisArg, pairs[i][1], pairs[i][0], this);
      }
    }
    entries() {
      return makeIterator(hs(this, 'entries'), (p) => [p[0], p[1]]);
    }
    keys() {
      return makeIterator(hs(this, 'keys'), (p) => p[0]);
    }
    values() {
      return makeIterator(hs(this, 'values'), (p) => p[1]);
    }
    [Symbol.iterator]() {
      return this.entries();
    }
  }
  Object.defineProperty(Headers.prototype, Symbol.toStringTag, { value: 'Headers', configurable: true });

  // A live iterator: each step sorts and combines the list as it is then (WebIDL's pair iterator).
  const HeadersIteratorPrototype = Object.create(Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())), {
    next: {
      value: function next() {
        const it = iteratorState.get(this);
        if (!it) throw new TypeError('next: the receiver is not a Headers iterator');
        const pairs = sortAndCombine(it.s.list);
        if (it.index >= pairs.length) return { value: undefined, done: true };
        return { value: it.pick(pairs[it.index++]), done: false };
      },
      writable: true,
      configurable: true,
      enumerable: true,
    },
    [Symbol.toStringTag]: { value: 'Headers Iterator', configurable: true },
  });
  const iteratorState = new WeakMap();
  function makeIterator(s, pick) {
    const it = Object.create(HeadersIteratorPrototype);
    iteratorState.set(it, { s, pick, index: 0 });
    return it;
  }
  function makeHeaders(list, guard) {
    const headers = new Headers();
    const s = headerState.get(headers);
    s.list = list;
    s.guard = guard;
    return headers;
  }

  Object.assign(exports, {
    Headers,
    makeHeaders,
    fillHeaders,
    headerState,
    getHeader,
    token,
    forbiddenMethodOverride,
    forbiddenResponse,
  });
});
