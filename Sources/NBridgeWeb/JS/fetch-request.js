// Request and Response (the Fetch standard): their constructors, fields and clone(), the URL a
// request names (relative to the entry script's folder), and the signal a request follows.
// Takes: internal.loadWeb('fetch-headers'), internal.loadWeb('fetch-body'),
//   internal.entryFolderURL (web-net.js); URL and AbortController (globals).
// Gives (exports, for fetch.js): Request, Response, baseURL, parseURL, withoutFragment, abortReason, effectiveSignal, makeResponse, nullBodyStatus, redirectStatus, requestState.
(function (global, internal, exports) {
  'use strict';
  const { fillHeaders, forbiddenMethodOverride, headerState, makeHeaders, token } = internal.loadWeb('fetch-headers');
  const { utf8, extractBody, bodyMixin } = internal.loadWeb('fetch-body');

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

  Object.assign(exports, {
    Request,
    Response,
    baseURL,
    parseURL,
    withoutFragment,
    abortReason,
    effectiveSignal,
    makeResponse,
    nullBodyStatus,
    redirectStatus,
    requestState,
  });
});
