// fetch, Headers, Request and Response (the Fetch standard) over libsoup (native.http), and
// the app's own files (native.appFile) for relative and file: URLs. Bodies are whole byte
// arrays (no ReadableStream), read from the network once consumed (native.httpRead);
// redirects are followed here, as the standard's steps say.
(function (global, internal, exports) {
  'use strict';
  const native = internal.native;
  const { Blob, File, FormData } = internal.loadWeb('blob');
  const { blobBytes, makeBlob, encodeFormData } = internal;
  const utf8 = (text) => new Uint8Array(native.encodeUTF8(String(text)));
  const decode = (bytes) => native.decodeUTF8(bytes);

  // ------------------------------------------------------------------ URLs
  // The WHATWG URL parser (url.js); null where it throws.
  function parseURL(input, base) {
    try {
      return new global.URL(input, base);
    } catch {
      return null;
    }
  }
  const baseURL = () => internal.entryFolderURL || 'file:///';
  const withoutFragment = (url) => url.href.replace(/#.*$/, '');
  const parsedURLs = new Map();
  function requestURL(input) {
    const key = baseURL() + '\n' + input;
    let href = parsedURLs.get(key);
    if (href !== undefined) return href;
    const parsed = parseURL(input, baseURL());
    if (!parsed) throw new TypeError('Request: "' + input + '" is not a valid URL');
    if (parsed.username || parsed.password) throw new TypeError('Request: "' + input + '" includes credentials');
    href = withoutFragment(parsed);
    if (parsedURLs.size >= 64) parsedURLs.delete(parsedURLs.keys().next().value);
    parsedURLs.set(key, href);
    return href;
  }

  // ------------------------------------------------------------------ Headers
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

  // ------------------------------------------------------------------ bodies
  // A body is { source, type } where source is a Uint8Array or a Promise of one (a response
  // still arriving, with `pull` to read it: until then only a bounded read-ahead is read);
  // `used` is kept on the owner's state.
  function extractBody(object) {
    if (object instanceof Blob) {
      return { source: blobBytes(object), type: object.type || null };
    }
    if (object instanceof ArrayBuffer) return { source: new Uint8Array(object.slice(0)), type: null };
    if (ArrayBuffer.isView(object)) {
      return {
        source: new Uint8Array(object.buffer.slice(object.byteOffset, object.byteOffset + object.byteLength)),
        type: null,
      };
    }
    if (object instanceof FormData) {
      const { bytes, boundary } = encodeFormData(object);
      return { source: bytes, type: 'multipart/form-data; boundary=' + boundary };
    }
    if (typeof global.URLSearchParams === 'function' && object instanceof global.URLSearchParams) {
      return { source: utf8(object.toString()), type: 'application/x-www-form-urlencoded;charset=UTF-8' };
    }
    if (typeof global.ReadableStream === 'function' && object instanceof global.ReadableStream) {
      throw new TypeError('ReadableStream bodies are not supported in a headless run');
    }
    return { source: utf8(object), type: 'text/plain;charset=UTF-8' };
  }

  // The Body mixin's methods, reading the owner's state through `stateOf`.
  function bodyMixin(proto, stateOf, what) {
    function consume(self, method) {
      let s;
      try {
        s = stateOf(self, method);
      } catch (e) {
        return Promise.reject(e);
      }
      if (s.bodyUsed) return Promise.reject(new TypeError(what + '.' + method + ': the body has already been read'));
      if (s.body === null) return Promise.resolve(new Uint8Array(0));
      s.bodyUsed = true;
      if (s.body.pull) s.body.pull();
      return Promise.resolve(s.body.source);
    }
    const methods = {
      arrayBuffer() {
        return consume(this, 'arrayBuffer').then((bytes) => bytes.slice().buffer);
      },
      bytes() {
        return consume(this, 'bytes').then((bytes) => bytes.slice());
      },
      blob() {
        const type = (() => {
          try {
            return stateOf(this, 'blob').headers.get('content-type') || '';
          } catch {
            return '';
          }
        })();
        return consume(this, 'blob').then((bytes) => makeBlob(bytes, type));
      },
      text() {
        return consume(this, 'text').then(decode);
      },
      json() {
        return consume(this, 'json').then((bytes) => JSON.parse(decode(bytes)));
      },
      formData() {
        let type = '';
        try {
          type = stateOf(this, 'formData').headers.get('content-type') || '';
        } catch {
          // consume rejects for the receiver below
        }
        return consume(this, 'formData').then((bytes) => parseFormData(bytes, type));
      },
    };
    for (const name of Object.keys(methods)) {
      Object.defineProperty(proto, name, {
        value: methods[name],
        writable: true,
        configurable: true,
        enumerable: true,
      });
    }
    Object.defineProperty(proto, 'bodyUsed', {
      get() {
        return stateOf(this, 'bodyUsed').bodyUsed;
      },
      configurable: true,
      enumerable: true,
    });
    Object.defineProperty(proto, 'body', {
      get() {
        return stateOf(this, 'body').body === null ? null : undefined;
      },
      configurable: true,
      enumerable: true,
    });
  }

  function parseFormData(bytes, type) {
    const form = new FormData();
    const essence = type.split(';')[0].trim().toLowerCase();
    if (essence === 'application/x-www-form-urlencoded') {
      // The URL standard's form parser, as URLSearchParams has it, over the body decoded as
      // UTF-8 with a leading BOM kept (it is part of the first name).
      const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
      for (const [name, value] of new global.URLSearchParams(text)) form.append(name, value);
      return form;
    }
    if (essence === 'multipart/form-data') {
      const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(type);
      if (!m) throw new TypeError('formData: the multipart body has no boundary');
      const boundary = '--' + (m[1] || m[2]);
      // Bytes as Latin-1 text, so offsets stay byte offsets.
      let latin = '';
      for (let i = 0; i < bytes.length; i += 8192) {
        latin += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192));
      }
      const parts = latin.split(boundary);
      if (parts.length < 2) throw new TypeError('formData: the multipart body is malformed');
      for (let i = 1; i < parts.length; i++) {
        let part = parts[i];
        if (part.startsWith('--')) break;
        part = part.replace(/^\r\n/, '').replace(/\r\n$/, '');
        const split = part.indexOf('\r\n\r\n');
        if (split < 0) throw new TypeError('formData: a multipart part has no header end');
        const head = part.slice(0, split);
        const body = part.slice(split + 4);
        const disposition = /content-disposition:[^\r\n]*?name="([^"]*)"/i.exec(head);
        if (!disposition) throw new TypeError('formData: a multipart part has no name');
        const filename = /filename="([^"]*)"/i.exec(head);
        const partType = /content-type:\s*([^\r\n]*)/i.exec(head);
        const raw = Uint8Array.from(body, (c) => c.charCodeAt(0));
        const name = decode(Uint8Array.from(disposition[1], (c) => c.charCodeAt(0)));
        if (filename) {
          const file = new File([raw], decode(Uint8Array.from(filename[1], (c) => c.charCodeAt(0))), {
            type: partType ? partType[1] : '',
          });
          form.append(name, file);
        } else {
          form.append(name, decode(raw));
        }
      }
      return form;
    }
    throw new TypeError('formData: the content type "' + type + '" is not a form');
  }

  // ------------------------------------------------------------------ AbortSignal
  const abortReason = (signal) =>
    signal.reason !== undefined ? signal.reason : new DOMException('The operation was aborted.', 'AbortError');
  function isSignal(value) {
    return value !== null && typeof value === 'object' && 'aborted' in value &&
      typeof value.addEventListener === 'function';
  }
  // The signal a request's fetch follows: its own once made, else the one it was given.
  const effectiveSignal = (s) => (s.signal !== undefined ? s.signal : s.parentSignal);
  // The request's own signal, aborted when `parent` is: an AbortSignal when the global is there.
  function followSignal(parent) {
    if (typeof global.AbortController === 'function') {
      const controller = new global.AbortController();
      if (parent) {
        if (parent.aborted) controller.abort(parent.reason);
        else parent.addEventListener('abort', () => controller.abort(parent.reason), { once: true });
      }
      return controller.signal;
    }
    return parent || null;
  }

  // ------------------------------------------------------------------ Request
  const requestState = new WeakMap();
  const rs = (request, method) => {
    const s = requestState.get(request);
    if (!s) throw new TypeError('Request.' + method + ': the receiver is not a Request');
    return s;
  };
  const normalMethods = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT'];
  const enums = {
    mode: ['navigate', 'same-origin', 'no-cors', 'cors'],
    credentials: ['omit', 'same-origin', 'include'],
    cache: ['default', 'no-store', 'reload', 'no-cache', 'force-cache', 'only-if-cached'],
    redirect: ['follow', 'error', 'manual'],
    referrerPolicy: [
      '',
      'no-referrer',
      'no-referrer-when-downgrade',
      'same-origin',
      'origin',
      'strict-origin',
      'origin-when-cross-origin',
      'strict-origin-when-cross-origin',
      'unsafe-url',
    ],
    duplex: ['half'],
    priority: ['high', 'low', 'auto'],
  };
  function enumMember(init, name) {
    if (init[name] === undefined) return undefined;
    const value = String(init[name]);
    if (!enums[name].includes(value)) {
      throw new TypeError("Request: '" + value + "' is not a valid value for " + name);
    }
    return value;
  }

  class Request {
    constructor(input, init = undefined) {
      if (arguments.length < 1) throw new TypeError('Request: 1 argument required, but only 0 present');
      if (init === null || init === undefined) init = {};
      else if (typeof init !== 'object' && typeof init !== 'function') {
        throw new TypeError('Request: init must be an object');
      }
      let base;
      if (requestState.has(input)) {
        base = requestState.get(input);
      } else {
        input = requestURL(String(input));
        base = null;
      }
      const s = {
        url: base ? base.url : input,
        method: base ? base.method : 'GET',
        mode: base ? base.mode : 'cors',
        credentials: base ? base.credentials : 'same-origin',
        cache: base ? base.cache : 'default',
        redirect: base ? base.redirect : 'follow',
        referrer: base ? base.referrer : 'about:client',
        referrerPolicy: base ? base.referrerPolicy : '',
        integrity: base ? base.integrity : '',
        keepalive: base ? base.keepalive : false,
        priority: 'auto',
        body: base ? base.body : null,
        bodyUsed: false,
        headers: null,
        // The request's own AbortSignal is made when first read (an AbortController per request
        // costs more than the rest of the constructor); until then `parentSignal` stands for it.
        signal: undefined,
        parentSignal: null,
      };
      if (init.window !== undefined && init.window !== null) throw new TypeError('Request: window must be null');
      if (init.referrer !== undefined) {
        const referrer = String(init.referrer);
        if (referrer === '') s.referrer = 'no-referrer';
        else {
          const parsed = parseURL(referrer, baseURL());
          if (!parsed) throw new TypeError('Request: "' + referrer + '" is not a valid referrer URL');
          s.referrer = parsed.protocol === 'about:' && parsed.pathname === 'client' ? 'about:client' : parsed.href;
        }
      }
      for (const name of ['referrerPolicy', 'mode', 'credentials', 'cache', 'redirect', 'priority']) {
        const value = enumMember(init, name);
        if (value !== undefined) s[name] = value;
      }
      if (s.mode === 'navigate') {
        if (init.mode !== undefined) throw new TypeError("Request: mode 'navigate' cannot be set");
        s.mode = 'same-origin';
      }
      if (s.cache === 'only-if-cached' && s.mode !== 'same-origin') {
        throw new TypeError("Request: cache 'only-if-cached' needs mode 'same-origin'");
      }
      if (init.integrity !== undefined) s.integrity = String(init.integrity);
      if (init.keepalive !== undefined) s.keepalive = !!init.keepalive;
      if (init.method !== undefined) {
        let method = String(init.method);
        if (!token.test(method)) throw new TypeError('Request: "' + method + '" is not a valid method');
        const upper = method.toUpperCase();
        if (forbiddenMethodOverride.has(upper)) throw new TypeError('Request: the method ' + method + ' is forbidden');
        if (normalMethods.includes(upper)) method = upper;
        s.method = method;
      }
      let parentSignal = base ? effectiveSignal(base) : null;
      if (init.signal !== undefined) {
        if (init.signal !== null && !isSignal(init.signal)) {
          throw new TypeError('Request: signal must be an AbortSignal');
        }
        parentSignal = init.signal;
      }
      s.parentSignal = parentSignal;
      if (init.duplex !== undefined) enumMember(init, 'duplex');
      // The init's headers, else a copy of the input request's list (already filtered by its guard).
      const headers = makeHeaders([], 'request');
      if (init.headers !== undefined) fillHeaders(headerState.get(headers), init.headers);
      else if (base) headerState.get(headers).list = headerState.get(base.headers).list.slice();
      s.headers = headers;
      const initBody = init.body === undefined ? null : init.body;
      const inputBody = base ? base.body : null;
      if ((initBody !== null || inputBody !== null) && (s.method === 'GET' || s.method === 'HEAD')) {
        throw new TypeError('Request: a ' + s.method + ' request cannot have a body');
      }
      if (initBody !== null) {
        const body = extractBody(initBody);
        s.body = body;
        if (body.type && !headers.has('content-type')) headerState.get(headers).list.push(['Content-Type', body.type]);
      } else if (inputBody !== null) {
        if (base.bodyUsed) throw new TypeError("Request: the input request's body has already been read");
      }
      // The input request's body moves to this one: the input reads as used.
      if (inputBody !== null && init.body === undefined) base.bodyUsed = true;
      requestState.set(this, s);
    }
    get method() {
      return rs(this, 'method').method;
    }
    get url() {
      return rs(this, 'url').url;
    }
    get headers() {
      return rs(this, 'headers').headers;
    }
    get destination() {
      rs(this, 'destination');
      return '';
    }
    get referrer() {
      const r = rs(this, 'referrer').referrer;
      return r === 'no-referrer' ? '' : r;
    }
    get referrerPolicy() {
      return rs(this, 'referrerPolicy').referrerPolicy;
    }
    get mode() {
      return rs(this, 'mode').mode;
    }
    get credentials() {
      return rs(this, 'credentials').credentials;
    }
    get cache() {
      return rs(this, 'cache').cache;
    }
    get redirect() {
      return rs(this, 'redirect').redirect;
    }
    get integrity() {
      return rs(this, 'integrity').integrity;
    }
    get keepalive() {
      return rs(this, 'keepalive').keepalive;
    }
    get isReloadNavigation() {
      rs(this, 'isReloadNavigation');
      return false;
    }
    get isHistoryNavigation() {
      rs(this, 'isHistoryNavigation');
      return false;
    }
    get signal() {
      const s = rs(this, 'signal');
      if (s.signal === undefined) s.signal = followSignal(s.parentSignal);
      return s.signal;
    }
    get duplex() {
      rs(this, 'duplex');
      return 'half';
    }
    clone() {
      const s = rs(this, 'clone');
      if (s.bodyUsed) throw new TypeError('Request.clone: the body has already been read');
      const copy = Object.create(Request.prototype);
      requestState.set(copy, {
        ...s,
        headers: makeHeaders(headerState.get(s.headers).list.slice(), 'request'),
        signal: undefined,
        parentSignal: effectiveSignal(s),
      });
      return copy;
    }
  }
  bodyMixin(Request.prototype, rs, 'Request');
  Object.defineProperty(Request.prototype, Symbol.toStringTag, { value: 'Request', configurable: true });

  // ------------------------------------------------------------------ Response
  const responseState = new WeakMap();
  const ps = (response, method) => {
    const s = responseState.get(response);
    if (!s) throw new TypeError('Response.' + method + ': the receiver is not a Response');
    return s;
  };
  const nullBodyStatus = [101, 103, 204, 205, 304];
  const redirectStatus = [301, 302, 303, 307, 308];
  function makeResponse(fields) {
    const response = Object.create(Response.prototype);
    responseState.set(response, {
      type: 'default',
      urlList: [],
      status: 200,
      statusText: '',
      body: null,
      bodyUsed: false,
      redirected: false,
      ...fields,
    });
    return response;
  }
  function initResponse(s, init, body) {
    if (init === undefined || init === null) init = {};
    else if (typeof init !== 'object' && typeof init !== 'function') {
      throw new TypeError('Response: init must be an object');
    }
    const status = init.status === undefined ? 200 : Number(init.status) & 0xffff;
    if (status < 200 || status > 599) throw new RangeError('Response: the status ' + init.status + ' is out of range');
    const statusText = init.statusText === undefined ? '' : String(init.statusText);
    if (!/^[\t\x20-\x7e\x80-\xff]*$/.test(statusText)) {
      throw new TypeError('Response: "' + statusText + '" is not a valid status text');
    }
    s.status = status;
    s.statusText = statusText;
    if (init.headers !== undefined) fillHeaders(headerState.get(s.headers), init.headers);
    if (body !== null) {
      if (nullBodyStatus.includes(status)) {
        throw new TypeError('Response: a response with status ' + status + ' cannot have a body');
      }
      s.body = { source: body.source };
      if (body.type && !s.headers.has('content-type')) {
        headerState.get(s.headers).list.push(['Content-Type', body.type]);
      }
    }
  }

  class Response {
    constructor(body = null, init = undefined) {
      const s = {
        type: 'default',
        urlList: [],
        status: 200,
        statusText: '',
        body: null,
        bodyUsed: false,
        redirected: false,
        headers: makeHeaders([], 'response'),
      };
      responseState.set(this, s);
      initResponse(s, init, body === null || body === undefined ? null : extractBody(body));
    }
    static error() {
      return makeResponse({ type: 'error', status: 0, headers: makeHeaders([], 'immutable') });
    }
    static redirect(url, status = 302) {
      const parsed = parseURL(String(url), baseURL());
      if (!parsed) throw new TypeError('Response.redirect: "' + String(url) + '" is not a valid URL');
      status = Number(status) & 0xffff;
      if (!redirectStatus.includes(status)) {
        throw new RangeError('Response.redirect: ' + status + ' is not a redirect status');
      }
      return makeResponse({ status, headers: makeHeaders([['Location', parsed.href]], 'immutable') });
    }
    static json(data, init = undefined) {
      const text = JSON.stringify(data);
      if (text === undefined) throw new TypeError('Response.json: the data cannot be serialized as JSON');
      const s = {
        type: 'default',
        urlList: [],
        status: 200,
        statusText: '',
        body: null,
        bodyUsed: false,
        redirected: false,
        headers: makeHeaders([], 'response'),
      };
      const response = Object.create(Response.prototype);
      responseState.set(response, s);
      initResponse(s, init, { source: utf8(text), type: 'application/json' });
      return response;
    }
    get type() {
      return ps(this, 'type').type;
    }
    get url() {
      const list = ps(this, 'url').urlList;
      return list.length ? list[list.length - 1] : '';
    }
    get redirected() {
      return ps(this, 'redirected').urlList.length > 1;
    }
    get status() {
      return ps(this, 'status').status;
    }
    get ok() {
      const status = ps(this, 'ok').status;
      return status >= 200 && status <= 299;
    }
    get statusText() {
      return ps(this, 'statusText').statusText;
    }
    get headers() {
      return ps(this, 'headers').headers;
    }
    clone() {
      const s = ps(this, 'clone');
      if (s.bodyUsed) throw new TypeError('Response.clone: the body has already been read');
      const guard = headerState.get(s.headers).guard;
      return makeResponse({ ...s, headers: makeHeaders(headerState.get(s.headers).list.slice(), guard) });
    }
  }
  bodyMixin(Response.prototype, ps, 'Response');
  Object.defineProperty(Response.prototype, Symbol.toStringTag, { value: 'Response', configurable: true });

  // ------------------------------------------------------------------ fetch
  // A TypeError as fetch rejects with it: `cause` an Error whose `code` says what happened.
  function networkError(message, code, detail, extra) {
    const cause = new Error(detail);
    cause.code = code;
    if (extra) Object.assign(cause, extra);
    return new TypeError('fetch: ' + message, { cause });
  }
  const describe = {
    connection_refused: 'the connection was refused',
    host_not_found: 'the host was not found',
    bad_certificate: "the server's TLS certificate is not trusted",
    timed_out: 'the connection timed out',
    connection_closed: 'the connection was closed',
    bad_url: 'the URL cannot be requested',
    aborted: 'the request was aborted',
    body_discarded: 'the body was discarded unread',
    network_error: 'the request failed',
  };

  // The User-Agent the exchanges send: the navigator's, when there is one.
  let agent;
  const userAgent = () => agent || (agent = (global.navigator && global.navigator.userAgent) || 'nbridge');

  // One HTTP exchange: resolves with { status, statusText, list, body: Promise<Uint8Array> }.
  function sendOnce(method, url, list, bytes, signal) {
    return new Promise((resolve, reject) => {
      let settleBody;
      let headSeen = false;
      let done = false;
      const body = new Promise((res, rej) => {
        settleBody = { res, rej };
      });
      body.catch(() => {});
      const onAbort = () => {
        if (done) return;
        done = true;
        native.httpCancel(id);
        const reason = abortReason(signal);
        if (headSeen) settleBody.rej(reason);
        else reject(reason);
      };
      const headers = list.map(([n, v]) => n + '\n' + v).join('\n');
      const agent = userAgent();
      const handler = (event, a, b, c) => {
        if (done) return;
        if (event === 0) {
          headSeen = true;
          const pairs = c === '' ? [] : c.split('\n');
          const received = [];
          for (let i = 0; i + 1 < pairs.length; i += 2) {
            if (!forbiddenResponse(pairs[i].toLowerCase())) received.push([pairs[i], pairs[i + 1]]);
          }
          resolve({ status: a, statusText: b, list: received, body, id });
          return;
        }
        done = true;
        if (signal && typeof signal.removeEventListener === 'function') signal.removeEventListener('abort', onAbort);
        if (event === 1) {
          settleBody.res(new Uint8Array(a));
          return;
        }
        const error = networkError(describe[a] + ' (' + url + ')', a, b);
        if (headSeen) settleBody.rej(error);
        else reject(error);
      };
      const id = native.http(method, url, headers, bytes ? bytes.buffer : undefined, agent, handler);
      if (id === 0) {
        done = true;
        reject(networkError(
          'the "network" permission is not granted, so ' + url + ' was not requested',
          'permission_denied',
          'the app\'s manifest does not list the "network" permission (or --deny network was given); ' +
            'add it to "permissions" or pass --allow network',
          { permission: 'network' },
        ));
        return;
      }
      if (signal && !done) signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  // The Fetch standard's bad ports: a request to one is a network error before anything is sent.
  const badPorts = new Set([
    0,
    1,
    7,
    9,
    11,
    13,
    15,
    17,
    19,
    20,
    21,
    22,
    23,
    25,
    37,
    42,
    43,
    53,
    69,
    77,
    79,
    87,
    95,
    101,
    102,
    103,
    104,
    109,
    110,
    111,
    113,
    115,
    117,
    119,
    123,
    135,
    137,
    139,
    143,
    161,
    179,
    389,
    427,
    465,
    512,
    513,
    514,
    515,
    526,
    530,
    531,
    532,
    540,
    548,
    554,
    556,
    563,
    587,
    601,
    636,
    989,
    990,
    993,
    995,
    1719,
    1720,
    1723,
    2049,
    3659,
    4045,
    4190,
    5060,
    5061,
    6000,
    6566,
    6665,
    6666,
    6667,
    6668,
    6669,
    6679,
    6697,
    10080,
  ]);
  function checkPort(url) {
    const m = /^[a-z]+:\/\/(?:[^@/?#]*@)?(?:\[[^\]]*\]|[^:/?#]*):(\d+)/i.exec(url);
    if (m && badPorts.has(Number(m[1]))) {
      throw networkError('the port ' + m[1] + ' of ' + url + ' is blocked', 'bad_port', 'the Fetch standard blocks it');
    }
  }

  // The bytes of a body to send: whole, since libsoup takes the request body at once.
  const contiguous = (
    source,
  ) => (source.byteOffset === 0 && source.byteLength === source.buffer.byteLength ? source : source.slice());

  async function httpFetch(s, signal) {
    let method = s.method;
    let url = s.url;
    let list = headerState.get(s.headers).list.slice();
    let bytes = s.body === null ? null : contiguous(await s.body.source);
    if (!list.some(([n]) => n.toLowerCase() === 'accept')) list.push(['Accept', '*/*']);
    const urlList = [url];
    for (;;) {
      checkPort(url);
      const reply = await sendOnce(method, url, list, bytes, signal);
      const location = getHeader(reply.list, 'location');
      if (!redirectStatus.includes(reply.status) || location === null) {
        return makeResponse({
          type: 'basic',
          urlList,
          status: reply.status,
          statusText: reply.statusText,
          headers: makeHeaders(reply.list, 'immutable'),
          body: method === 'HEAD' || nullBodyStatus.includes(reply.status)
            ? null
            : { source: reply.body, pull: () => native.httpRead(reply.id) },
        });
      }
      if (s.redirect === 'error') {
        native.httpCancel(reply.id);
        throw networkError(
          'the response to ' + url + ' is a redirect',
          'redirect',
          "the request's redirect mode is 'error'",
        );
      }
      if (s.redirect === 'manual') {
        native.httpCancel(reply.id);
        return makeResponse({ type: 'opaqueredirect', urlList, status: 0, headers: makeHeaders([], 'immutable') });
      }
      native.httpCancel(reply.id);
      const next = parseURL(location, url);
      if (!next) throw networkError('the redirect to "' + location + '" is not a valid URL', 'redirect', location);
      if (next.protocol !== 'http:' && next.protocol !== 'https:') {
        throw networkError('the redirect to ' + next.href + ' is not an HTTP(S) URL', 'redirect', next.href);
      }
      if (urlList.length > 20) {
        throw networkError('more than 20 redirects from ' + s.url, 'redirect', 'too many redirects');
      }
      if (
        ((reply.status === 301 || reply.status === 302) && method === 'POST') ||
        (reply.status === 303 && method !== 'GET' && method !== 'HEAD')
      ) {
        method = 'GET';
        bytes = null;
        const dropped = ['content-encoding', 'content-language', 'content-location', 'content-type', 'content-length'];
        list = list.filter(([n]) => !dropped.includes(n.toLowerCase()));
      }
      if (parseURL(url).origin !== next.origin) list = list.filter(([n]) => n.toLowerCase() !== 'authorization');
      url = withoutFragment(next);
      urlList.push(url);
    }
  }

  function fileFetch(s) {
    if (s.method !== 'GET' && s.method !== 'HEAD') {
      throw networkError("only GET reads the app's files, not " + s.method, 'method_not_allowed', s.url);
    }
    const url = parseURL(s.url);
    const found = native.appFile(url.pathname);
    if (found === undefined) {
      throw networkError(
        s.url + " lies outside the app's folder",
        'outside_app_folder',
        'a file: URL may name only files in the folder of the entry script (' + baseURL() + ')',
      );
    }
    const bytes = found === null ? utf8('Not found: ' + url.pathname + '\n') : new Uint8Array(found[0]);
    const type = found === null ? 'text/plain; charset=utf-8' : found[1];
    return makeResponse({
      type: 'basic',
      urlList: [s.url],
      status: found === null ? 404 : 200,
      statusText: found === null ? 'Not Found' : 'OK',
      headers: makeHeaders([['Content-Type', type], ['Content-Length', String(bytes.length)]], 'immutable'),
      body: s.method === 'HEAD' ? null : { source: bytes },
    });
  }

  function dataFetch(s) {
    const m = /^data:([^,]*?)(;base64)?,(.*)$/is.exec(s.url);
    if (!m || s.method !== 'GET') throw networkError('the data: URL cannot be read', 'bad_url', s.url);
    let bytes;
    const raw = decodeURIComponentBytes(m[3]);
    if (m[2]) {
      const text = atob(String.fromCharCode.apply(null, raw).replace(/[\t\n\f\r ]/g, ''));
      bytes = Uint8Array.from(text, (c) => c.charCodeAt(0));
    } else bytes = raw;
    const type = m[1].trim() || 'text/plain;charset=US-ASCII';
    return makeResponse({
      type: 'basic',
      urlList: [s.url],
      status: 200,
      statusText: 'OK',
      headers: makeHeaders([['Content-Type', type]], 'immutable'),
      body: { source: bytes },
    });
  }
  function decodeURIComponentBytes(text) {
    const out = [];
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x25 && /^[0-9a-fA-F]{2}$/.test(text.slice(i + 1, i + 3))) {
        out.push(parseInt(text.slice(i + 1, i + 3), 16));
        i += 2;
      } else if (c < 0x80) out.push(c);
      else out.push(...utf8(text[i]));
    }
    return new Uint8Array(out);
  }

  function fetch(input, init = undefined) {
    try {
      return Promise.resolve(start(input, init));
    } catch (e) {
      return Promise.reject(e);
    }
  }
  function start(input, init) {
    const request = new Request(input, init);
    const s = requestState.get(request);
    const signal = effectiveSignal(s);
    if (signal && signal.aborted) throw abortReason(signal);
    if (s.body !== null) {
      if (s.bodyUsed) throw new TypeError('fetch: the request body has already been read');
      s.bodyUsed = true;
    }
    const scheme = s.url.slice(0, s.url.indexOf(':') + 1).toLowerCase();
    if (scheme === 'http:' || scheme === 'https:') return httpFetch(s, signal);
    if (scheme === 'file:') return fileFetch(s);
    if (scheme === 'data:') return dataFetch(s);
    throw networkError('the scheme of ' + s.url + ' is not supported', 'unsupported_scheme', scheme);
  }

  exports.fetch = fetch;
  exports.Headers = Headers;
  exports.Request = Request;
  exports.Response = Response;
});
