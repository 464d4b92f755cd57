// The nbridge object: a function per registered action returning a Promise, listeners,
// coded errors, WKBridgeKit's callToNative, platform() and onBridgeReady(). Shared by a
// headless run (native = the runtime's functions) and a page (native = page.js's messages).
(function (global, internal) {
  'use strict';
  const native = internal.native;
  const { services, args, codes, messages } = internal;
  // Codes and message templates come from the runtime (ErrorCode, BridgeMessages): one place.
  const fill = (template, values) => template.replace(/\{(\w+)\}/g, (_, name) => values[name]);
  // A name or value a message quotes is cut to a short prefix: a megabyte name makes a short message.
  function cut(s) {
    return s.length > 80 ? s.slice(0, 80) + '…' : s;
  }
  const noService = (service) => fill(messages.unknownService, { service: cut(service) });
  const noAction = (service, action) => fill(messages.unknownAction, { service: cut(service), action: cut(action) });
  const hasOwn = Object.prototype.hasOwnProperty;
  const defineHidden = (obj, name, value) =>
    Object.defineProperty(obj, name, { value, writable: true, configurable: true, enumerable: false });

  class NBridgeError extends Error {
    constructor(code, message) {
      super(message);
      this.code = code;
    }
  }
  Object.defineProperty(NBridgeError.prototype, 'name', { value: 'NBridgeError', writable: true, configurable: true });
  const makeError = (code, message) => new NBridgeError(code, message);
  const reject = (code, message) => Promise.reject(new NBridgeError(code, message));

  // ---------------------------------------------------------------- options to JSON
  // Options are read once, into a plain copy that JSON.stringify then writes: a getter or a Proxy
  // trap runs once, and what was checked is what is sent. The limits (BridgeLimits in Swift) are
  // checked as the value is read, before any work a claimed size would cost: an array's or a typed
  // array's length is weighed against what is left of the budget before its elements are read, so
  // a sparse array of length 2**32-1 costs one read. A call never throws: whatever goes wrong
  // while reading the options (a throwing getter or trap, a revoked Proxy, the stack running out)
  // rejects with invalid_parameter naming the path.
  const { maxDepth, maxValues, maxTextLength } = internal.limits;

  // A value the options may not hold: its path (keys and positions below the options) and why.
  // Told apart from what a script throws by a WeakSet: `instanceof` on a thrown revoked Proxy throws.
  const refusals = new WeakSet();
  class Refusal {
    constructor(path, reason) {
      this.path = path;
      this.reason = reason;
      refusals.add(this);
    }
  }
  const isRefusal = (e) => refusals.has(e);
  function formatPath(path) {
    let s = '';
    for (const k of path) s += typeof k === 'number' ? '[' + k + ']' : s ? '.' + k : k;
    // A path 512 levels deep is mostly repetition; keep both ends.
    if (s.length > 300) s = s.slice(0, 150) + '…' + s.slice(-100);
    return s || 'options';
  }
  const describe = (e) => {
    try {
      return String(e).slice(0, 200);
    } catch {
      return 'an exception';
    }
  };
  const tooMany = (n) => 'holds ' + n + ' values; the options may hold at most ' + maxValues + ' in all';
  const tooLong = 'makes the options longer than their limit of ' + maxTextLength + ' characters';

  // The reading of one call's options below the top level, made when the first nested value is
  // met: budgets left, and the containers being read with their keys (stack[0] is the options
  // object; path[i] is where stack[i + 1] was found).
  function Walk(options, values) {
    this.values = values;
    this.text = 0;
    this.stack = [options];
    this.path = [];
  }
  function refuse(w, key, reason) {
    const path = w.path.slice();
    path.push(key);
    throw new Refusal(path, reason);
  }
  // `out[k] = v`, except that a key "__proto__" is an own property as in the value read.
  function put(out, k, v) {
    if (k === '__proto__') {
      Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
    } else out[k] = v;
  }

  // The JSON-ready copy of `v`, found under `key` in the container on top of `w.stack`;
  // undefined where JSON.stringify leaves the value out.
  function copy(w, v, key) {
    switch (typeof v) {
      case 'string':
        if ((w.text -= v.length) < 0) refuse(w, key, tooLong);
        return v;
      case 'number':
        if (v - v !== 0) refuse(w, key, 'must be a finite number (got ' + v + ')');
        return v;
      case 'boolean':
      case 'undefined':
        return v;
      case 'function':
        return refuse(w, key, 'must not be a function');
      case 'symbol':
        return refuse(w, key, 'must not be a symbol');
      case 'bigint':
        return refuse(w, key, 'must not be a BigInt');
    }
    return v === null ? null : copyObject(w, v, key);
  }

  const ObjectPrototype = Object.prototype;
  function copyObject(w, v, key) {
    const base = w.path.length;
    let entered = false, child;
    try {
      // What JSON.stringify does first: toJSON (a Date's), then a Number, String or Boolean object's value.
      if (typeof v.toJSON === 'function') {
        v = v.toJSON(String(key));
        if (v === null || typeof v !== 'object') return copy(w, v, key);
      }
      const isArray = Array.isArray(v);
      // A typed array's elements are its keys: weigh its length before listing them.
      let n = isArray ? Math.floor(+v.length) : ArrayBuffer.isView(v) ? v.length : 0;
      if (!isArray && Object.getPrototypeOf(v) !== ObjectPrototype) {
        if (v instanceof Number) return copy(w, Number(v), key);
        if (v instanceof String) return copy(w, String(v), key);
        if (v instanceof Boolean) return Boolean.prototype.valueOf.call(v);
        if (v instanceof BigInt) refuse(w, key, 'must not be a BigInt');
        if (n === 0) n = proxiedLength(v, w.values);
      }
      if (w.stack.length >= maxDepth) tooDeep(w, v, key);
      if (!(n >= 0)) n = 0;
      if (n > w.values) refuse(w, key, tooMany(n));
      w.stack.push(v);
      w.path.push(key);
      entered = true;
      let out;
      if (isArray) {
        w.values -= n;
        out = [];
        for (let i = 0; i < n; i++) {
          child = i;
          const c = copy(w, v[i], i);
          out.push(c === undefined ? null : c);
        }
      } else {
        const keys = Object.keys(v);
        if (keys.length > w.values) throw new Refusal(w.path.slice(), tooMany(keys.length));
        w.values -= keys.length;
        out = {};
        for (let i = 0; i < keys.length; i++) {
          const k = (child = keys[i]);
          if ((w.text -= k.length) < 0) refuse(w, k, tooLong);
          const c = copy(w, v[k], k);
          if (c !== undefined) put(out, k, c);
        }
      }
      w.stack.pop();
      w.path.pop();
      return out;
    } catch (e) {
      if (isRefusal(e)) throw e;
      const path = w.path.slice(0, base);
      path.push(key);
      if (entered && child !== undefined) path.push(child);
      throw new Refusal(path, 'could not be read (' + describe(e) + ')');
    }
  }

  // How many elements a Proxy presenting a typed array holds (its target's prototype shows
  // through), as far as `budget` needs to know: 0 when at most `budget`. Listing its keys runs
  // its traps once per index (seconds for a 10 MiB array), and its length cannot be read through
  // it (the getter wants the typed array itself); its indexes run from 0 without a gap, so
  // probing a few dozen of them finds whether it holds more than `budget`, and then how many.
  const TypedArray = Object.getPrototypeOf(Uint8Array);
  function proxiedLength(v, budget) {
    if (!(v instanceof TypedArray) || !hasOwn.call(v, budget)) return 0;
    // Index lo - 1 is there, index hi - 1 is not.
    let lo = budget + 1, hi = 2 * lo;
    while (hi < 2 ** 53 && hasOwn.call(v, hi - 1)) lo = hi, hi *= 2;
    while (hi - lo > 1) {
      const mid = lo + Math.floor((hi - lo) / 2);
      if (hasOwn.call(v, mid - 1)) lo = mid;
      else hi = mid;
    }
    return lo;
  }

  // Past maxDepth: a cycle, named where it closes, or nesting too deep.
  function tooDeep(w, v, key) {
    const seen = new Map();
    const chain = w.stack.concat([v]);
    const path = w.path.concat([key]);
    for (let i = 0; i < chain.length; i++) {
      if (seen.has(chain[i])) throw new Refusal(path.slice(0, i), 'contains a cycle');
      seen.set(chain[i], i);
    }
    throw new Refusal(path, 'nests deeper than ' + maxDepth + ' levels');
  }

  // The JSON text of a call's options; throws a Refusal. Sets `optionsCallback` to its retainCallback.
  let optionsCallback;
  function optionsJSON(options) {
    if (typeof options.toJSON === 'function') options = options.toJSON('');
    if (options === null || typeof options !== 'object' || Array.isArray(options)) {
      throw new Refusal(
        [],
        'must be an object (got ' + (Array.isArray(options) ? 'array' : options === null ? 'null' : typeof options) +
          ')',
      );
    }
    // A typed array's indexes are its keys (a Proxy's too): weighed before Object.keys lists them.
    if (Object.getPrototypeOf(options) !== ObjectPrototype) {
      const n = ArrayBuffer.isView(options) ? options.length : proxiedLength(options, maxValues);
      if (n > maxValues) throw new Refusal([], tooMany(n));
    }
    const keys = Object.keys(options);
    if (keys.length > maxValues) throw new Refusal([], tooMany(keys.length));
    const out = {};
    let text = maxTextLength, callback, w, k;
    try {
      for (let i = 0; i < keys.length; i++) {
        k = keys[i];
        const v = options[k];
        const t = typeof v;
        // Strings, booleans and finite numbers are what most options hold: nothing more to check.
        if (t === 'string') {
          if ((text -= k.length + v.length) < 0) throw new Refusal([k], tooLong);
          put(out, k, v);
        } else if (t === 'boolean' || (t === 'number' && v - v === 0)) {
          put(out, k, v);
        } else if (k === 'retainCallback') {
          if (t === 'function') callback = v;
          else if (v != null) throw new Refusal([k], 'must be a function');
        } else {
          if (!w) w = new Walk(options, maxValues - keys.length);
          w.text = text - k.length;
          const c = copy(w, v, k);
          text = w.text;
          if (c !== undefined) put(out, k, c);
        }
      }
    } catch (e) {
      if (isRefusal(e)) throw e;
      throw new Refusal([k], 'could not be read (' + describe(e) + ')');
    }
    const json = JSON.stringify(out);
    if (json.length > maxTextLength) {
      throw new Refusal([], 'must be at most ' + maxTextLength + ' characters as JSON text (got ' + json.length + ')');
    }
    optionsCallback = callback;
    return json;
  }

  // A call goes out as code = sid * 65536 + aid, its options' JSON text and its retainCallback;
  // the fewer arguments, the fewer C-API calls (each takes JSC's lock) on the other side.
  // `atTurnEnd`: the action's calls may start together at the end of the turn (see `queue`).
  // `decode`: what turns the answer into the call's value (`decodeBytes` for a bytes result).
  function invoke(sid, aid, label, options, atTurnEnd, decode) {
    const code = sid * 65536 + aid;
    if (options === undefined || options === null) return send(code, undefined, undefined, decode);
    let json;
    try {
      json = optionsJSON(options);
    } catch (e) {
      return refused(label, e);
    }
    const callback = optionsCallback;
    if (callback) return send(code, json, callback, decode);
    return atTurnEnd && startAll !== undefined ? queue(code, json) : send(code, json, undefined, decode);
  }

  // A page's native.call returns the call's Promise. A headless run's native.start(code, id[,
  // json[, callback]]) returns the call's value when it was answered at once (or throws its
  // error), and `native` itself when it is answered later by id: its Promise's functions then
  // wait here, resolve at 2 * id and reject at 2 * id + 1, until the runtime calls answerCall(),
  // failCall() or answerCalls(). An id is taken before the call (a call may start another) and
  // reused once answered. A value answered at once that `decode` need not touch (a headless bytes
  // action's Uint8Array) resolves the call's Promise as it is: no Promise more, no reaction.
  const start = native.start;
  const OriginalPromise = internal.OriginalPromise;
  const inFlight = [];
  const freeIds = [];
  let nextId = 0;
  // `first`: the first call at the end of a turn (`queue`), whose answer at once counts from the
  // microtask its Promise settles in.
  function send(code, json, callback, decode, first) {
    if (start === undefined) {
      const promise = native.call(code, json, callback);
      return decode === undefined ? promise : promise.then(decode);
    }
    if (queued.length) startQueued();
    const id = freeIds.length ? freeIds.pop() : nextId++;
    let value;
    try {
      value = json === undefined
        ? start(code, id)
        : callback === undefined
        ? start(code, id, json)
        : start(code, id, json, callback);
    } catch (e) {
      freeIds.push(id);
      return OriginalPromise.reject(e);
    }
    if (value !== native) {
      freeIds.push(id);
      if (first) {
        const answered = value === null ? answeredAtOnce : () => (answeredAtOnce(), value);
        return (resolved ??= OriginalPromise.resolve()).then(answered);
      }
      if (decode !== undefined && typeof value === 'string') return OriginalPromise.resolve(value).then(decode);
      return OriginalPromise.resolve(value);
    }
    return decode === undefined ? pending(id) : pending(id).then(decode);
  }
  // The Promise of call `id`, its functions put in `inFlight`: one executor for every call
  // (told where by `at`) rather than a closure made per call.
  let at = 0;
  function keep(resolve, reject) {
    inFlight[at] = resolve;
    inFlight[at + 1] = reject;
  }
  function pending(id) {
    at = 2 * id;
    return new OriginalPromise(keep);
  }
  // Calls of actions that start at the end of the turn (ActionInfo.startsAtTurnEnd in Swift:
  // storage's writes, answered once committed at the end of the loop turn anyway) wait here as
  // lines of code, id and JSON text (JSON.stringify's text holds no line break), and reach the
  // runtime together in ONE native.startAll once the turn's synchronous code has run (a
  // microtask), or before any other call starts, so calls start in the order they were made.
  // The first such call after an answer came in starts at once, as any call does: one awaited
  // at a time then costs no microtask; the calls after it in the same turn wait. One answered in
  // its call (a lone `storage.set`, committed at once) counts as an answer from the next
  // microtask on, the one its Promise settles in: the calls made after it in the same run of
  // code still start together, and the one its awaiter makes next starts at once too.
  const startAll = native.startAll;
  const queued = [];
  let resolved, startedSinceAnswer = false;
  function queue(code, json) {
    if (!startedSinceAnswer) {
      startedSinceAnswer = true;
      return send(code, json, undefined, undefined, true);
    }
    const id = freeIds.length ? freeIds.pop() : nextId++;
    if (!queued.length) (resolved ??= OriginalPromise.resolve()).then(startQueued);
    queued.push(code, id, json);
    // A few hundred calls a native.startAll: its text (~40 KB) and JavaScriptCore's 16-bit copy
    // of it stay below the size malloc maps fresh pages for (a burst of 10,000 in one string
    // spent ~3% of its time in page faults).
    if (queued.length >= 3 * 256) startQueued();
    return pending(id);
  }
  function answeredAtOnce() {
    startedSinceAnswer = false;
    return null;
  }
  function startQueued() {
    if (!queued.length) return;
    const records = queued.join('\n');
    queued.length = 0;
    startAll(records);
  }
  // The functions of call `id`, taken out of the table (its id free again).
  function settler(id, offset) {
    const fn = inFlight[2 * id + offset];
    inFlight[2 * id] = inFlight[2 * id + 1] = undefined;
    freeIds.push(id);
    return fn;
  }
  function answerCall(id, value) {
    startedSinceAnswer = false;
    settler(id, 0)(value);
  }
  function failCall(id, error) {
    startedSinceAnswer = false;
    settler(id, 1)(error);
  }
  // Calls answered together (Runtime.deliverHeldAnswers): [id, value, id, value, ...].
  function answerCalls(list) {
    startedSinceAnswer = false;
    for (let i = 0; i < list.length; i += 2) settler(list[i], 0)(list[i + 1]);
  }
  function refused(label, e) {
    if (isRefusal(e)) {
      const at = e.path.length ? '"' + formatPath(e.path) + '" ' : 'options ';
      return reject(codes.invalidParameter, label + ': ' + at + e.reason);
    }
    return reject(codes.invalidParameter, label + ': options could not be read (' + describe(e) + ')');
  }

  // ---------------------------------------------------------------- bytes (Shape.bytes)
  // Bytes cross as Base64 text: a typed array, DataView or ArrayBuffer in one of the action's
  // bytes fields is encoded before the options are read, and a bytes result decoded into a
  // Uint8Array (a sync action's is one already in a headless run). Natively in a headless run
  // (BytesNatives); with the page's atob/btoa in a window (page.js).
  const toBase64 = native.bytesToBase64;
  const decodeBytes = (value) => typeof value === 'string' ? native.base64ToBytes(value) : value;
  const ObjectToString = Object.prototype.toString;
  function asBytes(v) {
    if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
    const tag = ObjectToString.call(v);
    if (tag === '[object ArrayBuffer]' || tag === '[object SharedArrayBuffer]') return new Uint8Array(v);
    return undefined;
  }
  function bytesAction(action, sid, aid, l, bytes) {
    return {
      [action](options) {
        if (bytes.in.length && options !== null && typeof options === 'object') {
          let copy;
          for (const field of bytes.in) {
            let view;
            try {
              view = asBytes(options[field]);
            } catch (e) {
              return refused(l, new Refusal([field], 'could not be read (' + describe(e) + ')'));
            }
            if (view === undefined) continue;
            if (!copy) copy = Object.assign({}, options);
            copy[field] = toBase64(view);
          }
          if (copy) options = copy;
        }
        return invoke(sid, aid, l, options, false, bytes.out ? decodeBytes : undefined);
      },
    }[action];
  }

  // The function of each action, by service and action number, named for the action: made on
  // the service's first use. What is made stays in the heap that every collection marks (a
  // service's functions and objects are about 4 KB), and a script reaches few of the services.
  const actions = [];
  function actionsOf(sid) {
    const svc = services[sid];
    return actions[sid] ??= svc.actions.map((action, aid) => {
      const label = svc.name + '.' + action;
      if (svc.bytes && hasOwn.call(svc.bytes, action)) return bytesAction(action, sid, aid, label, svc.bytes[action]);
      const atTurnEnd = svc.atTurnEnd.indexOf(aid) >= 0;
      return {
        [action](options) {
          return invoke(sid, aid, label, options, atTurnEnd);
        },
      }[action];
    });
  }

  // ---------------------------------------------------------------- the nbridge object
  // Each service's listeners: event name -> the entries added ({ callback }), in order; a
  // service's Map is made with its first listener.
  const listeners = [];
  const nb = {};
  const serviceIndex = new Map();
  function unknownMember(make) {
    return new Proxy({}, {
      get(_target, name) {
        if (typeof name !== 'string' || name === 'then' || name === 'toJSON' || name === 'constructor') {
          return undefined;
        }
        return make(name);
      },
    });
  }
  const unknownService = (name) => unknownMember(() => () => reject(codes.invalidService, noService(name)));
  // A service's object, made on the first read of nbridge.<service> (an accessor until then, which
  // an assignment replaces as it would the object). On an nbridge a script froze first, the
  // accessor stays, gives the one object made and ignores an assignment.
  const made = [];
  services.forEach((svc, sid) => {
    serviceIndex.set(svc.name, sid);
    const own = (value) =>
      Reflect.defineProperty(nb, svc.name, { value, writable: true, enumerable: true, configurable: true });
    Object.defineProperty(nb, svc.name, {
      get() {
        const obj = made[sid] ??= serviceObject(svc, sid);
        own(obj);
        return obj;
      },
      set: own,
      enumerable: true,
      configurable: true,
    });
  });
  function serviceObject(svc, sid) {
    const obj = Object.create(
      unknownMember((action) => () => reject(codes.invalidActionName, noAction(svc.name, action))),
    );
    actionsOf(sid).forEach((fn, aid) => obj[svc.actions[aid]] = fn);
    defineHidden(obj, 'addListener', function addListener(event, callback) {
      if (svc.events.indexOf(event) < 0) {
        const known = svc.events.length
          ? svc.events.map((e) => "'" + e + "'").join(', ')
          : '(none: ' + svc.name + ' has no events)';
        const got = internal.inspect(typeof event === 'string' ? cut(event) : event, 1, []);
        throw makeError(
          codes.invalidParameter,
          svc.name + '.addListener: "event" must be one of ' + known + ' (got ' + got + ')',
        );
      }
      if (typeof callback !== 'function') {
        throw makeError(codes.invalidParameter, svc.name + '.addListener: "callback" must be a function');
      }
      if (!svc.allowed) {
        const denied = fill(messages.permissionDenied, { service: svc.name, permission: svc.permission });
        throw makeError(codes.permissionDenied, svc.name + '.addListener: ' + denied);
      }
      const byEvent = listeners[sid] ??= new Map();
      let list = byEvent.get(event);
      if (!list) byEvent.set(event, list = []);
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
        const list = listeners[sid]?.get(e);
        if (list && list.length) {
          list.length = 0;
          native.listeners(sid, e, 0);
        }
      }
    });
    return obj;
  }
  Object.setPrototypeOf(nb, unknownMember(unknownService));

  // Calls a built-in action by name, even if a script replaced nbridge.app with a wrapper built on callToNative.
  function callBuiltin(service, action, option) {
    const sid = serviceIndex.get(service);
    if (sid === undefined) return reject(codes.invalidService, noService(service));
    const aid = services[sid].actions.indexOf(action);
    if (aid < 0) return reject(codes.invalidActionName, noAction(service, action));
    return actionsOf(sid)[aid](option);
  }
  defineHidden(nb, 'callToNative', function callToNative(service, action, option) {
    try {
      service = String(service);
      action = String(action);
    } catch (e) {
      return reject(
        codes.invalidParameter,
        'callToNative: "service" and "action" must be strings (' + describe(e) + ')',
      );
    }
    return callBuiltin(service, action, option);
  });
  defineHidden(nb, 'platform', () => 'linux');
  defineHidden(nb, 'onBridgeReady', (callback) => {
    const ready = Promise.resolve(nb);
    if (typeof callback === 'function') ready.then(callback);
    return ready;
  });
  defineHidden(nb, 'args', args.slice());
  global.nbridge = nb;

  // Hands a listener's return value (or its Promise's) to the action that answers the event,
  // as {id, result}; a throw or a rejection answers 'failed'. The action decides which answer wins.
  function answer(sid, action, payload, returned, threw) {
    const send = (result) => {
      if (result === undefined) return;
      callBuiltin(services[sid].name, action, { id: payload.id, result }).catch((e) => native.reportError(e));
    };
    if (threw) send('failed');
    else if (returned !== null && typeof returned === 'object' && typeof returned.then === 'function') {
      returned.then(send, () => send('failed'));
    } else send(returned);
  }

  // Delivers a plugin event to the listeners of service `sid`.
  function emit(sid, event, payload) {
    const list = listeners[sid]?.get(event);
    if (!list || !list.length) return;
    const answeredBy = services[sid].answers ? services[sid].answers[event] : undefined;
    for (const entry of list.slice()) {
      let returned, threw = false;
      try {
        returned = entry.callback(payload);
      } catch (e) {
        if (answeredBy === undefined) native.reportError(e);
        threw = true;
      }
      if (answeredBy !== undefined) answer(sid, answeredBy, payload, returned, threw);
    }
  }

  Object.assign(internal, {
    NBridgeError,
    makeError,
    answerCall,
    failCall,
    answerCalls,
    callBuiltin,
    emit,
    describe,
  });
});
