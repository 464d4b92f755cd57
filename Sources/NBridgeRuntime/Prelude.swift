/// The JavaScript prelude evaluated into every context: the globals JSC's core lacks,
/// the `nbridge` object, WKBridgeKit's message handler and `require`/`load`.
/// It is a function of `(global, native, services, args, testMode)` returning the hooks the runtime calls.
let preludeSource = ##"""
// nbridge's JavaScript prelude: the globals JSC's core lacks and the `nbridge` object.
// Evaluated once per context as a function of (global, native, services, args, testMode).
(function (global, native, services, args, testMode) {
  'use strict';
  const hasOwn = Object.prototype.hasOwnProperty;
  const defineHidden = (obj, name, value) =>
    Object.defineProperty(obj, name, { value, writable: true, configurable: true, enumerable: false });

  // ---------------------------------------------------------------- console
  function quote(s) {
    return "'" + s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n') + "'";
  }
  function keyText(k) { return /^[A-Za-z_$][\w$]*$/.test(k) ? k : quote(k); }
  function inspect(value, depth, seen) {
    switch (typeof value) {
      case 'string': return depth === 0 ? value : quote(value);
      case 'number': return Object.is(value, -0) ? '-0' : String(value);
      case 'bigint': return value + 'n';
      case 'boolean': case 'undefined': return String(value);
      case 'symbol': return value.toString();
      case 'function': return '[Function: ' + (value.name || '(anonymous)') + ']';
    }
    if (value === null) return 'null';
    if (seen.indexOf(value) >= 0) return '[Circular]';
    if (value instanceof Error) {
      const head = value.stack ? value.name + ': ' + value.message + '\n' + formatStack(value.stack) : String(value);
      const extra = value.code !== undefined ? ' { code: ' + quote(String(value.code)) + ' }' : '';
      return depth === 0 ? head + extra : '[' + value.name + ': ' + value.message + ']' + extra;
    }
    if (value instanceof Date) return isNaN(value) ? 'Invalid Date' : value.toISOString();
    if (value instanceof RegExp) return String(value);
    if (depth > 2) return Array.isArray(value) ? '[Array]' : '[Object]';
    seen.push(value);
    let out;
    try {
      if (Array.isArray(value)) {
        const items = value.slice(0, 100).map((v) => inspect(v, depth + 1, seen));
        if (value.length > 100) items.push('... ' + (value.length - 100) + ' more items');
        out = items.length ? '[ ' + items.join(', ') + ' ]' : '[]';
      } else if (value instanceof Map) {
        const items = [];
        value.forEach((v, k) => items.push(inspect(k, depth + 1, seen) + ' => ' + inspect(v, depth + 1, seen)));
        out = 'Map(' + value.size + ') {' + (items.length ? ' ' + items.join(', ') + ' ' : '') + '}';
      } else if (value instanceof Set) {
        const items = [];
        value.forEach((v) => items.push(inspect(v, depth + 1, seen)));
        out = 'Set(' + value.size + ') {' + (items.length ? ' ' + items.join(', ') + ' ' : '') + '}';
      } else if (ArrayBuffer.isView(value)) {
        out = value.constructor.name + '(' + value.length + ') [ ' + Array.prototype.slice.call(value, 0, 50).join(', ') + ' ]';
      } else if (value instanceof Promise) {
        out = 'Promise { <pending> }';
      } else {
        const keys = Object.keys(value);
        const items = keys.map((k) => keyText(k) + ': ' + inspect(value[k], depth + 1, seen));
        const proto = Object.getPrototypeOf(value);
        const name = proto && proto !== Object.prototype && proto.constructor && proto.constructor.name;
        out = (name ? name + ' ' : '') + (items.length ? '{ ' + items.join(', ') + ' }' : '{}');
      }
    } finally {
      seen.pop();
    }
    return out;
  }
  function format(items) {
    let first = items[0];
    let rest = 1;
    let text = '';
    if (typeof first === 'string' && first.indexOf('%') >= 0) {
      text = first.replace(/%([sdifoOjc%])/g, (m, f) => {
        if (f === '%') return '%';
        if (rest >= items.length) return m;
        const v = items[rest++];
        switch (f) {
          case 's': return typeof v === 'string' ? v : inspect(v, 1, []);
          case 'd': case 'i': return typeof v === 'object' ? 'NaN' : String(f === 'i' ? parseInt(v) : Number(v));
          case 'f': return String(parseFloat(v));
          case 'j': try { return JSON.stringify(v); } catch (e) { return '[Circular]'; }
          case 'c': return '';
          default: return inspect(v, 1, []);
        }
      });
    } else {
      text = inspect(first, 0, []);
    }
    for (; rest < items.length; rest++) text += ' ' + inspect(items[rest], 0, []);
    return text;
  }
  const counters = new Map();
  const timersByLabel = new Map();
  const out = (...a) => native.print(1, format(a) + '\n');
  const err = (...a) => native.print(2, format(a) + '\n');
  global.console = {
    log: out, info: out, debug: out, warn: err, error: err,
    trace: (...a) => err('Trace: ' + format(a) + '\n' + formatStack(new Error().stack)),
    assert: (cond, ...a) => { if (!cond) err('Assertion failed' + (a.length ? ': ' + format(a) : '')); },
    count: (label = 'default') => { counters.set(label, (counters.get(label) || 0) + 1); out(label + ': ' + counters.get(label)); },
    time: (label = 'default') => { timersByLabel.set(label, Date.now()); },
    timeEnd: (label = 'default') => { out(label + ': ' + (Date.now() - (timersByLabel.get(label) || Date.now())) + 'ms'); timersByLabel.delete(label); },
    dir: (v) => out(v),
    table: (v) => out(v),
  };

  // Scripts run with top-level await are wrapped in an async function whose head sits on
  // their first line: its width, by URL, is taken off first-line columns.
  const columnShifts = new Map();
  function unshift(where) {
    const m = /^(.*):1:(\d+)$/.exec(where);
    const shift = m && columnShifts.get(m[1]);
    return shift ? m[1] + ':1:' + Math.max(1, Number(m[2]) - shift) : where;
  }
  function formatStack(stack) {
    return String(stack || '').split('\n').filter((l) => l).map((line) => {
      const at = line.lastIndexOf('@');
      if (at < 0) return '    at ' + unshift(line);
      const fn = line.slice(0, at);
      const where = unshift(line.slice(at + 1));
      return '    at ' + (fn ? fn + ' (' + where + ')' : where);
    }).join('\n');
  }

  // ---------------------------------------------------------------- WebAssembly
  // Its async compile needs a host run loop that JavaScriptCore's C API does not drive: the
  // promises would stay pending forever. Reject at once instead, pointing at the sync API.
  if (typeof WebAssembly === 'object' && WebAssembly) {
    for (const name of ['compile', 'instantiate', 'compileStreaming', 'instantiateStreaming']) {
      if (typeof WebAssembly[name] !== 'function') continue;
      Object.defineProperty(WebAssembly, name, {
        configurable: true, writable: true,
        value: function () {
          return Promise.reject(new TypeError('WebAssembly.' + name + ' is not available in nbridge (no asynchronous ' +
            'compilation): use new WebAssembly.Module(bytes) and new WebAssembly.Instance(module, imports)'));
        },
      });
    }
  }

  // ---------------------------------------------------------------- timers
  const toDelay = (ms) => { ms = Number(ms); return ms > 0 ? ms : 0; };
  function schedule(fn, ms, extra, repeat) {
    if (typeof fn !== 'function') throw new TypeError('The callback must be a function');
    const body = extra.length ? () => fn.apply(undefined, extra) : fn;
    return native.timer(body, toDelay(ms), repeat);
  }
  global.setTimeout = (fn, ms, ...extra) => schedule(fn, ms, extra, false);
  global.setInterval = (fn, ms, ...extra) => schedule(fn, ms, extra, true);
  global.clearTimeout = global.clearInterval = (id) => { if (typeof id === 'number') native.clearTimer(id); };
  const resolved = Promise.resolve();
  global.queueMicrotask = (fn) => {
    if (typeof fn !== 'function') throw new TypeError('queueMicrotask: the callback must be a function');
    resolved.then(() => { try { fn(); } catch (e) { native.reportError(e); } });
  };

  // ---------------------------------------------------------------- base64, text codecs, structuredClone
  const b64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  global.btoa = (input) => {
    const s = String(input);
    let result = '';
    for (let i = 0; i < s.length; i += 3) {
      const a = s.charCodeAt(i), b = s.charCodeAt(i + 1), c = s.charCodeAt(i + 2);
      if (a > 255 || b > 255 || c > 255) throw new DOMException('btoa: the string contains characters outside of the Latin1 range', 'InvalidCharacterError');
      const n = (a << 16) | ((b || 0) << 8) | (c || 0);
      result += b64[n >> 18] + b64[(n >> 12) & 63] + (i + 1 < s.length ? b64[(n >> 6) & 63] : '=') + (i + 2 < s.length ? b64[n & 63] : '=');
    }
    return result;
  };
  global.atob = (input) => {
    const s = String(input).replace(/[\t\n\f\r ]/g, '').replace(/==?$/, '');
    if (s.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(s)) throw new DOMException('atob: the string is not correctly encoded', 'InvalidCharacterError');
    let result = '';
    let bits = 0, buffer = 0;
    for (let i = 0; i < s.length; i++) {
      buffer = (buffer << 6) | b64.indexOf(s[i]);
      bits += 6;
      if (bits >= 8) { bits -= 8; result += String.fromCharCode((buffer >> bits) & 255); }
    }
    return result;
  };
  class DOMException extends Error {
    constructor(message, name) { super(message); this.name = name || 'Error'; }
  }
  global.DOMException = DOMException;

  class TextEncoder {
    get encoding() { return 'utf-8'; }
    encode(input = '') {
      const s = String(input);
      const bytes = [];
      for (let i = 0; i < s.length; i++) {
        let c = s.charCodeAt(i);
        if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length) {
          const d = s.charCodeAt(i + 1);
          if (d >= 0xdc00 && d < 0xe000) { c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00); i++; }
          else c = 0xfffd;
        } else if (c >= 0xd800 && c < 0xe000) c = 0xfffd;
        if (c < 0x80) bytes.push(c);
        else if (c < 0x800) bytes.push(0xc0 | (c >> 6), 0x80 | (c & 63));
        else if (c < 0x10000) bytes.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
        else bytes.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
      }
      return new Uint8Array(bytes);
    }
  }
  class TextDecoder {
    constructor(label = 'utf-8', options = {}) {
      const l = String(label).toLowerCase();
      if (l !== 'utf-8' && l !== 'utf8') throw new RangeError('TextDecoder: only utf-8 is supported, not ' + label);
      this.fatal = !!options.fatal;
    }
    get encoding() { return 'utf-8'; }
    decode(input) {
      if (input === undefined) return '';
      const bytes = input instanceof ArrayBuffer ? new Uint8Array(input) : new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
      let s = '';
      for (let i = 0; i < bytes.length;) {
        const b = bytes[i];
        let c = 0xfffd, n = 1;
        if (b < 0x80) c = b;
        else if (b >= 0xc2 && b < 0xe0 && (bytes[i + 1] & 0xc0) === 0x80) { c = ((b & 31) << 6) | (bytes[i + 1] & 63); n = 2; }
        else if (b >= 0xe0 && b < 0xf0 && (bytes[i + 1] & 0xc0) === 0x80 && (bytes[i + 2] & 0xc0) === 0x80) {
          c = ((b & 15) << 12) | ((bytes[i + 1] & 63) << 6) | (bytes[i + 2] & 63); n = 3;
          if (c < 0x800 || (c >= 0xd800 && c < 0xe000)) { c = 0xfffd; n = 1; }
        } else if (b >= 0xf0 && b < 0xf5 && (bytes[i + 1] & 0xc0) === 0x80 && (bytes[i + 2] & 0xc0) === 0x80 && (bytes[i + 3] & 0xc0) === 0x80) {
          c = ((b & 7) << 18) | ((bytes[i + 1] & 63) << 12) | ((bytes[i + 2] & 63) << 6) | (bytes[i + 3] & 63); n = 4;
          if (c < 0x10000 || c > 0x10ffff) { c = 0xfffd; n = 1; }
        }
        if (c === 0xfffd && n === 1 && b >= 0x80 && this.fatal) throw new TypeError('TextDecoder: the data is not valid utf-8');
        s += String.fromCodePoint(c);
        i += n;
      }
      return s;
    }
  }
  global.TextEncoder = TextEncoder;
  global.TextDecoder = TextDecoder;

  global.structuredClone = function structuredClone(value) {
    const copies = new Map();
    function clone(v) {
      if (typeof v === 'function' || typeof v === 'symbol') throw new DOMException(String(v) + ' could not be cloned.', 'DataCloneError');
      if (v === null || typeof v !== 'object') return v;
      if (copies.has(v)) return copies.get(v);
      let c;
      if (v instanceof Date) c = new Date(v.getTime());
      else if (v instanceof RegExp) c = new RegExp(v.source, v.flags);
      else if (v instanceof ArrayBuffer) c = v.slice(0);
      else if (ArrayBuffer.isView(v)) c = new v.constructor(v);
      else if (v instanceof Map) { c = new Map(); copies.set(v, c); v.forEach((x, k) => c.set(clone(k), clone(x))); return c; }
      else if (v instanceof Set) { c = new Set(); copies.set(v, c); v.forEach((x) => c.add(clone(x))); return c; }
      else if (v instanceof Error) { c = new (global[v.name] || Error)(v.message); c.stack = v.stack; }
      else if (Array.isArray(v)) { c = []; copies.set(v, c); v.forEach((x, i) => { c[i] = clone(x); }); return c; }
      else {
        c = {};
        copies.set(v, c);
        for (const k of Object.keys(v)) c[k] = clone(v[k]);
        return c;
      }
      copies.set(v, c);
      return c;
    }
    return clone(value);
  };

  // ---------------------------------------------------------------- web-page shims
  global.window = global;
  global.self = global;
  global.alert = (message) => { native.print(1, '[alert] ' + (message === undefined ? '' : String(message)) + '\n'); };
  global.confirm = (message) => { native.print(1, '[confirm] ' + (message === undefined ? '' : String(message)) + ' -> false\n'); return false; };
  global.prompt = (message) => { native.print(1, '[prompt] ' + (message === undefined ? '' : String(message)) + ' -> null\n'); return null; };

  // ---------------------------------------------------------------- errors
  class NBridgeError extends Error {
    constructor(code, message) {
      super(message);
      this.code = code;
    }
  }
  Object.defineProperty(NBridgeError.prototype, 'name', { value: 'NBridgeError', writable: true, configurable: true });
  const makeError = (code, message) => new NBridgeError(code, message);
  const reject = (code, message) => Promise.reject(new NBridgeError(code, message));

  // ---------------------------------------------------------------- option checks
  // Returns a message naming the first value JSON cannot carry, or undefined.
  function problem(v, path, seen) {
    switch (typeof v) {
      case 'string': case 'boolean': case 'undefined': return undefined;
      case 'number': return isFinite(v) ? undefined : '"' + path + '" must be a finite number (got ' + v + ')';
      case 'function': return '"' + path + '" must not be a function';
      case 'symbol': return '"' + path + '" must not be a symbol';
      case 'bigint': return '"' + path + '" must not be a BigInt';
    }
    if (v === null || typeof v.toJSON === 'function') return undefined;
    if (seen.indexOf(v) >= 0) return '"' + path + '" contains a cycle';
    seen.push(v);
    let found;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length && !found; i++) found = problem(v[i], path + '[' + i + ']', seen);
    } else {
      for (const k in v) {
        if (!hasOwn.call(v, k)) continue;
        found = problem(v[k], path ? path + '.' + k : k, seen);
        if (found) break;
      }
    }
    seen.pop();
    return found;
  }

  // native.call(code[, json[, callback]]) with code = sid * 65536 + aid: the fewer arguments,
  // the fewer C-API calls (each takes JSC's lock) on the other side.
  function invoke(sid, aid, label, options) {
    const code = sid * 65536 + aid;
    if (options === undefined || options === null) return native.call(code);
    if (typeof options !== 'object' || Array.isArray(options)) {
      return reject('invalid_parameter', label + ': options must be an object (got ' + (Array.isArray(options) ? 'array' : typeof options) + ')');
    }
    let callback = options.retainCallback;
    const seen = [options];
    let found;
    for (const k in options) {
      const v = options[k];
      const t = typeof v;
      // Strings, booleans and finite numbers are what most options hold: nothing to check.
      if (t === 'string' || t === 'boolean' || (t === 'number' && v - v === 0)) continue;
      if (!hasOwn.call(options, k)) continue;
      if (k === 'retainCallback') {
        if (callback !== undefined && typeof callback !== 'function') found = '"retainCallback" must be a function';
      } else {
        found = problem(options[k], k, seen);
      }
      if (found) return reject('invalid_parameter', label + ': ' + found);
    }
    let json;
    try { json = JSON.stringify(options); } catch (e) { return reject('invalid_parameter', label + ': ' + e.message); }
    return typeof callback === 'function' ? native.call(code, json, callback) : native.call(code, json);
  }

  // ---------------------------------------------------------------- the nbridge object
  const listeners = new Map();
  const nb = {};
  const serviceIndex = new Map();
  function unknownMember(make) {
    return new Proxy({}, {
      get(target, name) {
        if (typeof name !== 'string' || name === 'then' || name === 'toJSON' || name === 'constructor') return undefined;
        return make(name);
      },
    });
  }
  const unknownService = (name) => unknownMember(() => () => reject('invalid_service', name + ': no such service is registered (see `nbridge plugins`)'));
  services.forEach((svc, sid) => {
    serviceIndex.set(svc.name, sid);
    const label = (action) => svc.name + '.' + action;
    const obj = Object.create(unknownMember((action) => () => reject('invalid_action_name', label(action) + ': ' + svc.name + ' has no action "' + action + '"')));
    svc.actions.forEach((action, aid) => {
      const l = label(action);
      obj[action] = { [action](options) { return invoke(sid, aid, l, options); } }[action];
    });
    const key = (event) => sid + ':' + event;
    defineHidden(obj, 'addListener', function addListener(event, callback) {
      if (svc.events.indexOf(event) < 0) throw makeError('invalid_parameter', svc.name + '.addListener: "event" must be one of ' + (svc.events.length ? svc.events.map((e) => "'" + e + "'").join(', ') : '(none: ' + svc.name + ' has no events)') + ' (got ' + inspect(event, 1, []) + ')');
      if (typeof callback !== 'function') throw makeError('invalid_parameter', svc.name + '.addListener: "callback" must be a function');
      if (!svc.allowed) throw makeError('permission_denied', svc.name + '.addListener: the app may not use "' + svc.name + '" (add it to "permissions" in nbridge.json or pass --allow ' + svc.permission + ')');
      const k = key(event);
      let list = listeners.get(k);
      if (!list) listeners.set(k, (list = []));
      const entry = { callback };
      list.push(entry);
      native.listeners(sid, event, list.length);
      let removed = false;
      return {
        remove() {
          if (removed) return;
          removed = true;
          const i = list.indexOf(entry);
          if (i >= 0) list.splice(i, 1);
          native.listeners(sid, event, list.length);
        },
      };
    });
    defineHidden(obj, 'removeAllListeners', function removeAllListeners(event) {
      for (const e of svc.events) {
        if (event !== undefined && e !== event) continue;
        const list = listeners.get(key(e));
        if (list && list.length) { list.length = 0; native.listeners(sid, e, 0); }
      }
    });
    nb[svc.name] = obj;
  });
  Object.setPrototypeOf(nb, unknownMember(unknownService));

  function callByName(service, action, option) {
    const svc = nb[service];
    if (!serviceIndex.has(service)) return reject('invalid_service', service + ': no such service is registered (see `nbridge plugins`)');
    const fn = svc[action];
    if (typeof fn !== 'function' || !hasOwn.call(svc, action)) return reject('invalid_action_name', service + '.' + action + ': ' + service + ' has no action "' + action + '"');
    return fn.call(svc, option);
  }
  // Bound to the built-in services even if a script replaces nbridge.app with a wrapper built on callToNative.
  const builtinAction = (service, action) => {
    const sid = serviceIndex.get(service);
    const aid = sid === undefined ? -1 : services[sid].actions.indexOf(action);
    if (aid < 0) return undefined;
    return (option) => invoke(sid, aid, service + '.' + action, option);
  };
  defineHidden(nb, 'callToNative', function callToNative(service, action, option) {
    const direct = builtinAction(String(service), String(action));
    return direct ? direct(option) : callByName(String(service), String(action), option);
  });
  defineHidden(nb, 'platform', () => 'linux');
  defineHidden(nb, 'onBridgeReady', (callback) => {
    const ready = Promise.resolve(nb);
    if (typeof callback === 'function') ready.then(callback);
    return ready;
  });
  defineHidden(nb, 'args', args.slice());
  global.nbridge = nb;

  // WKBridgeKit's own JS core posts JSON commands to a WKWebView message handler and is answered
  // through its own nbridge.resolvePromise(promiseId, data, error).
  function answer(promiseId, data, error) {
    const target = global.nbridge;
    if (target && typeof target.resolvePromise === 'function') target.resolvePromise(promiseId, data, error);
  }
  global.webkit = {
    messageHandlers: {
      WKBridge: {
        postMessage(message) {
          let command;
          try { command = typeof message === 'string' ? JSON.parse(message) : message; } catch (e) {
            native.print(2, 'nbridge: WKBridge.postMessage: not JSON: ' + String(message).slice(0, 200) + '\n');
            return;
          }
          if (!command || typeof command !== 'object') return;
          if (command.command === 'onBridgeReady') {
            if (command.promiseId !== undefined) answer(command.promiseId, null, null);
            return;
          }
          const call = builtinAction(String(command.service), String(command.action));
          const promise = call ? call(command.option) : callByName(String(command.service), String(command.action), command.option);
          promise.then(
            (data) => answer(command.promiseId, data === undefined ? null : data, null),
            (e) => answer(command.promiseId, (e && e.code) || 'unknown_error', { code: (e && e.code) || 'unknown_error', message: String((e && e.message) || e) }),
          );
        },
      },
    },
  };

  // ---------------------------------------------------------------- require / load
  function dirname(p) { const i = p.lastIndexOf('/'); return i <= 0 ? (i === 0 ? '/' : '.') : p.slice(0, i); }
  function resolvePath(base, p) {
    const parts = (p.startsWith('/') ? p : base + '/' + p).split('/');
    const stack = [];
    for (const part of parts) {
      if (part === '' || part === '.') continue;
      if (part === '..') stack.pop(); else stack.push(part);
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
    throw new Error('Cannot find module \'' + request + '\' (looked for ' + path + ', ' + path + '.js, ' + path + '.json, ' + path + '/index.js)');
  }
  function makeRequire(dir) {
    function require(request) {
      if (typeof request !== 'string' || !request) throw new TypeError('require: the path must be a non-empty string');
      if (!request.startsWith('.') && !request.startsWith('/')) throw new Error('Cannot find module \'' + request + '\': nbridge loads files by relative or absolute path only (no packages)');
      const file = findFile(dir, request);
      const cached = modules.get(file.path);
      if (cached) return cached.exports;
      const module = { exports: {}, filename: file.path, loaded: false };
      modules.set(file.path, module);
      if (file.path.endsWith('.json')) {
        module.exports = JSON.parse(file.text);
      } else {
        const wrapper = native.evaluate('(function (exports, require, module, __filename, __dirname) {' + file.text + '\n})', file.path);
        wrapper.call(module.exports, module.exports, makeRequire(dirname(file.path)), module, file.path, dirname(file.path));
      }
      module.loaded = true;
      return module.exports;
    }
    return require;
  }
  function makeLoad(dir) {
    return function load(path) {
      if (typeof path !== 'string' || !path) throw new TypeError('load: the path must be a non-empty string');
      const file = findFile(dir, path);
      return native.evaluate(file.text, file.path);
    };
  }

  const hooks = {
    makeError,
    emit(sid, event, payload) {
      const list = listeners.get(sid + ':' + event);
      if (!list || !list.length) return;
      for (const entry of list.slice()) {
        try { entry.callback(payload); } catch (e) { native.reportError(e); }
      }
    },
    shiftColumns(url, width) { columnShifts.set(url, width); },
    setEntry(path) {
      const dir = dirname(path);
      global.require = makeRequire(dir);
      global.load = makeLoad(dir);
      global.__filename = path;
      global.__dirname = dir;
    },
    formatError(e) {
      if (e instanceof Error) {
        const name = e.name || 'Error';
        const stack = formatStack(e.stack);
        return name + ': ' + e.message + (e.code !== undefined && !(e instanceof NBridgeError) ? ' (code ' + e.code + ')' : '') + (e instanceof NBridgeError ? ' [' + e.code + ']' : '') + (stack ? '\n' + stack : '');
      }
      return inspect(e, 1, []);
    },
    inspect: (v) => inspect(v, 0, []),
    formatStack,
  };
  return hooks;
})
"""##
