// MessageChannel, MessagePort and MessageEvent (HTML's channel messaging) within one run: a
// message is cloned (structuredClone) when posted and delivered to the entangled port as a task of
// its own on the loop. A port delivers once started (start(), or setting onmessage); until then
// its messages wait. `transfer` moves MessagePorts (the receiver gets new port objects in
// event.ports, the sent ones are closed) and ArrayBuffers (detached where the engine can).
// A queued message keeps the run alive until delivered; an idle port does not, since nothing
// else in a one-threaded run could post to it (Deno keeps a started port's run alive instead).
// Takes: internal.events (events.js's loader), internal.eventHandler, internal.platformObjects;
//   structuredClone and DOMException (globals).
// Gives: exports.MessageChannel, exports.MessagePort, exports.MessageEvent, exports.transferClone
//   (structuredClone's transfer list, encoding.js).
(function (global, internal, exports) {
  'use strict';
  const { EventTarget, Event, fire } = internal.events();
  const ports = new WeakMap(); // MessagePort -> { partner, queue, started, closed, scheduled }
  const portState = (port, method) => {
    const s = ports.get(port);
    if (!s) throw new TypeError('MessagePort.' + method + ': the receiver is not a MessagePort');
    return s;
  };
  const cloneError = (what) => new DOMException(what + ' could not be cloned.', 'DataCloneError');

  // ------------------------------------------------------------------ MessageEvent
  const eventData = new WeakMap();
  class MessageEvent extends Event {
    constructor(type, init = undefined) {
      if (arguments.length < 1) throw new TypeError('MessageEvent: 1 argument required, but only 0 present');
      super(type, init);
      const i = init ?? {};
      const list = i.ports === undefined ? [] : [...i.ports];
      for (const port of list) {
        if (!ports.has(port)) throw new TypeError('MessageEvent: each of ports must be a MessagePort');
      }
      eventData.set(this, {
        data: i.data === undefined ? null : i.data,
        origin: i.origin === undefined ? '' : String(i.origin),
        lastEventId: i.lastEventId === undefined ? '' : String(i.lastEventId),
        source: i.source === undefined ? null : i.source,
        ports: Object.freeze(list),
      });
    }
  }
  for (const name of ['data', 'origin', 'lastEventId', 'source', 'ports']) {
    Object.defineProperty(MessageEvent.prototype, name, {
      get() {
        const d = eventData.get(this);
        if (!d) throw new TypeError('MessageEvent.' + name + ': the receiver is not a MessageEvent');
        return d[name];
      },
      configurable: true,
      enumerable: true,
    });
  }
  Object.defineProperty(MessageEvent.prototype, Symbol.toStringTag, { value: 'MessageEvent', configurable: true });

  // ------------------------------------------------------------------ MessagePort
  let constructing = false;
  class MessagePort extends EventTarget {
    constructor() {
      if (!constructing) throw new TypeError('Illegal constructor: use new MessageChannel()');
      super();
      ports.set(this, { partner: null, queue: [], started: false, closed: false, scheduled: false });
    }
    postMessage(message, options = undefined) {
      const s = portState(this, 'postMessage');
      if (arguments.length < 1) throw new TypeError('MessagePort.postMessage: 1 argument required, but only 0 present');
      const transfer = transferList(options);
      for (const item of transfer) {
        if (item === this) throw cloneError('The source port');
        if (s.partner && item === s.partner.port) throw cloneError('The target port');
      }
      const { data, newPorts } = serialize(message, transfer);
      const target = s.partner;
      if (!target || target.closed) return;
      target.queue.push({ data, ports: newPorts });
      schedule(target);
    }
    start() {
      const s = portState(this, 'start');
      if (s.started || s.closed) return;
      s.started = true;
      schedule(s);
    }
    close() {
      const s = portState(this, 'close');
      s.closed = true;
      s.queue.length = 0;
      if (s.partner) s.partner.partner = null;
      s.partner = null;
    }
  }
  Object.defineProperty(MessagePort.prototype, Symbol.toStringTag, { value: 'MessagePort', configurable: true });
  internal.eventHandler(MessagePort.prototype, 'message');
  internal.eventHandler(MessagePort.prototype, 'messageerror');
  // Setting onmessage starts the port, as in a page.
  const onmessage = Object.getOwnPropertyDescriptor(MessagePort.prototype, 'onmessage');
  Object.defineProperty(MessagePort.prototype, 'onmessage', {
    get: onmessage.get,
    set(value) {
      onmessage.set.call(this, value);
      if (typeof value === 'function' || (value && typeof value === 'object')) this.start();
    },
    configurable: true,
    enumerable: true,
  });

  function newPort() {
    constructing = true;
    try {
      const port = new MessagePort();
      ports.get(port).port = port;
      return port;
    } finally {
      constructing = false;
    }
  }

  // One message per task, while the port is started and has some.
  function schedule(s) {
    if (!s.started || s.closed || s.scheduled || s.queue.length === 0) return;
    s.scheduled = true;
    setTimeout(() => {
      s.scheduled = false;
      if (!s.started || s.closed || s.queue.length === 0) return;
      const { data, ports: list } = s.queue.shift();
      fire(s.port, new MessageEvent('message', { data, ports: list }));
      schedule(s);
    }, 0);
  }

  // ------------------------------------------------------------------ cloning
  function transferList(options) {
    if (options === undefined || options === null) return [];
    let list = options;
    if (typeof options === 'object' && typeof options[Symbol.iterator] !== 'function') {
      list = options.transfer === undefined ? [] : options.transfer;
    }
    if (typeof list !== 'object' || typeof list[Symbol.iterator] !== 'function') {
      throw new TypeError('MessagePort.postMessage: transfer must be a sequence of objects');
    }
    const out = [];
    for (const item of list) {
      if (!ports.has(item) && !(item instanceof ArrayBuffer)) {
        throw cloneError(Object.prototype.toString.call(item) + ' in the transfer list');
      }
      if (out.includes(item)) throw cloneError('A duplicate in the transfer list');
      if (item instanceof ArrayBuffer && item.detached) throw cloneError('A detached ArrayBuffer in the transfer list');
      if (ports.has(item) && ports.get(item).closed && ports.get(item).detached) {
        throw cloneError('A port already transferred');
      }
      out.push(item);
    }
    return out;
  }

  // The message's copy and the ports the receiver gets. A transferred port moves its partner and
  // waiting messages to a new port object; a transferred ArrayBuffer is detached where the engine
  // has ArrayBuffer.prototype.transfer, else copied.
  function serialize(message, transfer) {
    if (transfer.length === 0) return { data: global.structuredClone(message), newPorts: [] };
    // A message that cannot be cloned throws before anything is moved.
    cloneWith(message, new Map(transfer.map((item) => [item, item])));
    const substitutes = new Map();
    const newPorts = [];
    for (const item of transfer) {
      if (item instanceof ArrayBuffer) {
        substitutes.set(item, typeof item.transfer === 'function' ? item.transfer() : item.slice(0));
        continue;
      }
      const old = ports.get(item);
      const port = newPort();
      const s = ports.get(port);
      s.partner = old.partner;
      if (s.partner) s.partner.partner = s;
      s.queue = old.queue;
      old.partner = null;
      old.queue = [];
      old.closed = true;
      old.detached = true;
      substitutes.set(item, port);
      newPorts.push(port);
    }
    return { data: cloneWith(message, substitutes), newPorts };
  }

  // structuredClone, but each transferred object stands for its substitute wherever it appears
  // in arrays and plain objects.
  function cloneWith(value, substitutes) {
    const copies = new Map();
    function walk(v) {
      if (v === null || typeof v !== 'object') return global.structuredClone(v);
      if (substitutes.has(v)) return substitutes.get(v);
      if (copies.has(v)) return copies.get(v);
      if (Array.isArray(v)) {
        const c = [];
        copies.set(v, c);
        v.forEach((x, i) => {
          c[i] = walk(x);
        });
        return c;
      }
      const proto = Object.getPrototypeOf(v);
      if (proto === Object.prototype || proto === null) {
        const c = {};
        copies.set(v, c);
        for (const k of Object.keys(v)) c[k] = walk(v[k]);
        return c;
      }
      const c = global.structuredClone(v);
      copies.set(v, c);
      return c;
    }
    return walk(value);
  }

  // ------------------------------------------------------------------ MessageChannel
  const channels = new WeakMap();
  class MessageChannel {
    constructor() {
      const port1 = newPort();
      const port2 = newPort();
      const a = ports.get(port1), b = ports.get(port2);
      a.partner = b;
      b.partner = a;
      channels.set(this, { port1, port2 });
    }
    get port1() {
      const c = channels.get(this);
      if (!c) throw new TypeError('MessageChannel.port1: the receiver is not a MessageChannel');
      return c.port1;
    }
    get port2() {
      const c = channels.get(this);
      if (!c) throw new TypeError('MessageChannel.port2: the receiver is not a MessageChannel');
      return c.port2;
    }
  }
  Object.defineProperty(MessageChannel.prototype, Symbol.toStringTag, { value: 'MessageChannel', configurable: true });
  internal.platformObjects.add(MessageChannel.prototype);

  // structuredClone(value, { transfer }) with a non-empty list (encoding.js): the same moves as a
  // posted message, without the posting.
  exports.transferClone = (value, list) => serialize(value, transferList(list)).data;
  exports.MessageChannel = MessageChannel;
  exports.MessagePort = MessagePort;
  exports.MessageEvent = MessageEvent;
});
