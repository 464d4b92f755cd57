// The nbridge object: a function per registered action returning a Promise, listeners,
// coded errors, WKBridgeKit's callToNative, platform() and onBridgeReady(). Shared by a
// headless run (native = the runtime's functions) and a page (native = page.js's messages).
(function (global, internal) {
  'use strict';
  const native = internal.native;
  const { services, args, codes, messages } = internal;
  // Codes and message templates come from the runtime (ErrorCode, BridgeMessages): one place.
  const fill = (template, values) => template.replace(/\{(\w+)\}/g, (_, name) => values[name]);
  const noService = (service) => fill(messages.unknownService, { service });
  const noAction = (service, action) => fill(messages.unknownAction, { service, action });
  const hasOwn = Object.prototype.hasOwnProperty;
  const defineHidden = (obj, name, value) =>
    Object.defineProperty(obj, name, { value, writable: true, configurable: true, enumerable: false });
  const inspect = (v, depth, seen) => internal.inspect(v, depth, seen);

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
      case 'string':
      case 'boolean':
      case 'undefined':
        return undefined;
      case 'number':
        return isFinite(v) ? undefined : '"' + path + '" must be a finite number (got ' + v + ')';
      case 'function':
        return '"' + path + '" must not be a function';
      case 'symbol':
        return '"' + path + '" must not be a symbol';
      case 'bigint':
        return '"' + path + '" must not be a BigInt';
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
      return reject(
        codes.invalidParameter,
        label + ': options must be an object (got ' + (Array.isArray(options) ? 'array' : typeof options) + ')',
      );
    }
    const callback = options.retainCallback;
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
      if (found) return reject(codes.invalidParameter, label + ': ' + found);
    }
    let json;
    try {
      json = JSON.stringify(options);
    } catch (e) {
      return reject(codes.invalidParameter, label + ': ' + e.message);
    }
    return typeof callback === 'function' ? native.call(code, json, callback) : native.call(code, json);
  }

  // ---------------------------------------------------------------- the nbridge object
  const listeners = new Map();
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
  services.forEach((svc, sid) => {
    serviceIndex.set(svc.name, sid);
    const label = (action) => svc.name + '.' + action;
    const obj = Object.create(
      unknownMember((action) => () => reject(codes.invalidActionName, noAction(svc.name, action))),
    );
    svc.actions.forEach((action, aid) => {
      const l = label(action);
      obj[action] = {
        [action](options) {
          return invoke(sid, aid, l, options);
        },
      }[action];
    });
    const key = (event) => sid + ':' + event;
    defineHidden(obj, 'addListener', function addListener(event, callback) {
      if (svc.events.indexOf(event) < 0) {
        throw makeError(
          codes.invalidParameter,
          svc.name + '.addListener: "event" must be one of ' + (svc.events.length
            ? svc.events.map((e) =>
              "'" + e + "'"
            ).join(', ')
            : '(none: ' + svc.name + ' has no events)') +
            ' (got ' + inspect(event, 1, []) + ')',
        );
      }
      if (typeof callback !== 'function') {
        throw makeError(codes.invalidParameter, svc.name + '.addListener: "callback" must be a function');
      }
      if (!svc.allowed) {
        const denied = fill(messages.permissionDenied, { service: svc.name, permission: svc.permission });
        throw makeError(codes.permissionDenied, svc.name + '.addListener: ' + denied);
      }
      const k = key(event);
      let list = listeners.get(k);
      if (!list) listeners.set(k, list = []);
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
        if (list && list.length) {
          list.length = 0;
          native.listeners(sid, e, 0);
        }
      }
    });
    nb[svc.name] = obj;
  });
  Object.setPrototypeOf(nb, unknownMember(unknownService));

  function callByName(service, action, option) {
    const svc = nb[service];
    if (!serviceIndex.has(service)) {
      return reject(codes.invalidService, noService(service));
    }
    const fn = svc[action];
    if (typeof fn !== 'function' || !hasOwn.call(svc, action)) {
      return reject(codes.invalidActionName, noAction(service, action));
    }
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

  // Hands a listener's return value (or its Promise's) to the action that answers the event,
  // as {id, result}; a throw or a rejection answers 'failed'. The action decides which answer wins.
  function answer(sid, action, payload, returned, threw) {
    const aid = services[sid].actions.indexOf(action);
    if (aid < 0) return;
    const send = (result) => {
      if (result === undefined) return;
      invoke(sid, aid, services[sid].name + '.' + action, { id: payload.id, result }).catch((e) =>
        native.reportError(e)
      );
    };
    if (threw) send('failed');
    else if (returned !== null && typeof returned === 'object' && typeof returned.then === 'function') {
      returned.then(send, () => send('failed'));
    } else send(returned);
  }

  // Delivers a plugin event to the listeners of service `sid`.
  function emit(sid, event, payload) {
    const list = listeners.get(sid + ':' + event);
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

  // WKBridgeKit's nbridge.callPauseListener()/callResumeListener(), when the script defines them.
  function lifecycleListener(name) {
    const target = global.nbridge;
    const listener = target && target['call' + name + 'Listener'];
    if (typeof listener !== 'function') return;
    try {
      listener.call(target);
    } catch (e) {
      native.reportError(e);
    }
  }

  Object.assign(internal, { NBridgeError, makeError, builtinAction, callByName, emit, lifecycleListener });
});
