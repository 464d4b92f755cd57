// A page in `nbridge app`: the `native` functions bridge.js is built on, as messages to the
// window's `nbridge` handler (each answered with a string), console output and page errors
// forwarded to the run's stdout/stderr, and the functions the window calls back into.
(function (global, internal) {
  'use strict';
  const handlers = global.webkit.messageHandlers;
  const token = internal.token;
  // Every message this frame posts carries the token, WKBridgeKit's own WKBridge posts included:
  // a frame of another origin has its own, unpatched handler prototype and does no work. The
  // prototype, not the handler object, is patched: WebKit may make a new wrapper object for a
  // handler after a garbage collection, but the prototype lives as long as the frame.
  const prototype = Object.getPrototypeOf(handlers.nbridge);
  const original = prototype.postMessage;
  Object.defineProperty(prototype, 'postMessage', {
    configurable: false,
    writable: false,
    enumerable: true,
    value: function postMessage(message) {
      return original.call(this, token + (typeof message === 'string' ? message : JSON.stringify(message)));
    },
  });
  const post = (text) => handlers.nbridge.postMessage(text);
  const streams = new Map();
  let nextStream = 1;

  function settle(answer) {
    if (answer.charCodeAt(0) === 49) return answer.length > 1 ? JSON.parse(answer.slice(1)) : undefined;
    const newline = answer.indexOf('\n');
    throw new internal.NBridgeError(answer.slice(1, newline), answer.slice(newline + 1));
  }

  internal.native = {
    call(code, json, callback) {
      if (typeof callback !== 'function') return post('c' + code + '\n' + (json || '')).then(settle);
      const id = nextStream++;
      streams.set(id, callback);
      const done = () => streams.delete(id);
      return post('s' + code + ' ' + id + '\n' + json).then(settle).finally(done);
    },
    listeners(sid, event, count) {
      post('l' + sid + ' ' + count + '\n' + event);
    },
    // The level (0 debug ... 3 error) is for the log viewer (--log-to).
    print(fd, text, level) {
      post('p' + fd + (level === undefined ? (fd === 2 ? 3 : 1) : level) + text);
    },
    log(level, text, stack) {
      post('g' + level + String(stack).replace(/\n/g, '\t') + '\n' + text);
    },
    reportError(e) {
      setTimeout(() => {
        throw e;
      });
    },
    // Bytes (Shape.bytes) cross as Base64 text, made and read with the page's btoa and atob.
    bytesToBase64(view) {
      let binary = '';
      for (let i = 0; i < view.length; i += 0x8000) {
        binary += String.fromCharCode.apply(null, view.subarray(i, i + 0x8000));
      }
      return global.btoa(binary);
    },
    base64ToBytes(text) {
      const binary = global.atob(text);
      const out = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
      return out;
    },
  };

  // Called by the window: a plugin event, or an intermediate result of a retainCallback call.
  const hidden = (name, value) =>
    Object.defineProperty(global, name, { value, configurable: false, enumerable: false });
  hidden('__nbridgeEvent', (sid, event, payload) => internal.emit(sid, event, payload));
  hidden('__nbridgeLifecycle', (name) => internal.lifecycleListener(name));
  hidden('__nbridgeStream', (id, value) => {
    const callback = streams.get(id);
    if (callback) callback(value);
  });

  // The page's console keeps printing in the page and also goes to the run's output with file:line.
  // The first frame of the page's own code (ours are not URLs): `file.js:line`.
  function caller() {
    for (const frame of String(new Error().stack || '').split('\n')) {
      const where = frame.slice(frame.lastIndexOf('@') + 1);
      if (where.indexOf('://') < 0) continue;
      const m = /([^/]*:\d+):\d+$/.exec(where);
      return m ? m[1] : '';
    }
    return '';
  }
  const levels = [['log', 1, 1], ['info', 1, 1], ['debug', 1, 0], ['warn', 2, 2], ['error', 2, 3]];
  for (const [name, fd, level] of levels) {
    const original = global.console[name];
    global.console[name] = function (...items) {
      const at = caller();
      internal.native.print(fd, (at ? at + ': ' : '') + internal.format(items) + '\n', level);
      return original.apply(this, items);
    };
  }
  global.addEventListener('error', (event) => {
    const e = event.error;
    const where = (event.filename || '').replace(/^.*\//, '') + ':' + event.lineno + ':' + event.colno;
    const text = e instanceof Error
      ? e.name + ': ' + e.message + '\n' + internal.formatStack(e.stack)
      : String(event.message);
    internal.native.print(2, 'Uncaught (in page ' + where + ') ' + text + '\n');
  });
  global.addEventListener('unhandledrejection', (event) => {
    const e = event.reason;
    const text = e instanceof Error
      ? e.name + ': ' + e.message + '\n' + internal.formatStack(e.stack)
      : internal.inspect(e, 1, []);
    internal.native.print(2, 'Uncaught (in promise, in page) ' + text + '\n');
  });
});
