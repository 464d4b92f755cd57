// fetch, Headers, Request and Response (the Fetch standard) over libsoup (native.http), and
// the app's own files (native.appFile) for relative and file: URLs. Bodies are whole byte
// arrays (no ReadableStream), read from the network once consumed (native.httpRead);
// redirects are followed here, as the standard's steps say.
// This file is the network: fetch() itself, one exchange through libsoup, the bad ports,
// file: and data: URLs.
// Takes: internal.loadWeb('fetch-headers'), 'fetch-body' and 'fetch-request'; internal.native.http,
//   httpCancel, httpRead, appFile; navigator.userAgent (global, when there).
// Gives (exports, the globals web-net.js defines): fetch, Headers, Request, Response.
(function (global, internal, exports) {
  'use strict';
  const native = internal.native;
  const { Headers, forbiddenResponse, getHeader, headerState, makeHeaders } = internal.loadWeb('fetch-headers');
  const { utf8 } = internal.loadWeb('fetch-body');
  const {
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
  } = internal.loadWeb('fetch-request');

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
