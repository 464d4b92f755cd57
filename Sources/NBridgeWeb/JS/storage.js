// Storage (HTML's Web Storage): localStorage, kept in the app's data folder and written through
// on every change, and sessionStorage, kept for the run. Each is a Proxy over a Storage, so
// `localStorage.key = 'v'`, `localStorage.key`, `delete localStorage.key`, `in` and
// Object.keys reach the items as in a page.
// Takes: internal.native.storageLoad, storageSet, storageRemove, storageClear; DOMException (global).
// Gives: exports.Storage, exports.QuotaExceededError, exports.localStorage() and exports.sessionStorage()
//   (each made on first call).
(function (_global, internal, exports) {
  'use strict';
  const native = internal.native;
  // 5 MiB of key and value UTF-16 code units per storage, as browsers count it.
  const quota = 5 * 1024 * 1024;
  const stateOf = new WeakMap(); // Storage (and its Proxy) -> { items: Map, used, persist }
  let constructing = false;

  function state(storage, method) {
    const s = stateOf.get(storage);
    if (!s) throw new TypeError('Storage.' + method + ': the receiver is not a Storage');
    return s;
  }
  function required(argc, count, method) {
    if (argc < count) {
      throw new TypeError(
        'Storage.' + method + ': ' + count + ' argument' + (count > 1 ? 's' : '') +
          ' required, but only ' + argc + ' present',
      );
    }
  }
  function write(s, action) {
    if (!s.persist) return;
    try {
      action();
    } catch (e) {
      const message = String(e && e.message);
      if (message.startsWith('QuotaExceededError: ')) {
        throw new QuotaExceededError(message.slice(20));
      }
      throw new DOMException(message, 'UnknownError');
    }
  }

  // HTML's QuotaExceededError: a DOMException named so, with the quota and the amount asked
  // for when known (null here: browsers do not tell either).
  class QuotaExceededError extends DOMException {
    #quota;
    #requested;
    constructor(message = '', options = undefined) {
      super(message, 'QuotaExceededError');
      const quota = options == null || options.quota === undefined ? null : Number(options.quota);
      const requested = options == null || options.requested === undefined ? null : Number(options.requested);
      for (const value of [quota, requested]) {
        if (value !== null && (!Number.isFinite(value) || value < 0)) {
          throw new RangeError('QuotaExceededError: quota and requested must be finite and not negative');
        }
      }
      if (quota !== null && requested !== null && requested < quota) {
        throw new RangeError('QuotaExceededError: requested must not be less than quota');
      }
      this.#quota = quota;
      this.#requested = requested;
    }
    get quota() {
      return this.#quota;
    }
    get requested() {
      return this.#requested;
    }
  }

  class Storage {
    constructor() {
      if (!constructing) throw new TypeError('Illegal constructor');
    }
    get length() {
      return state(this, 'length').items.size;
    }
    key(index) {
      const s = state(this, 'key');
      required(arguments.length, 1, 'key');
      index = Number(index) >>> 0;
      if (index >= s.items.size) return null;
      let i = 0;
      for (const k of s.items.keys()) if (i++ === index) return k;
      return null;
    }
    getItem(key) {
      const s = state(this, 'getItem');
      required(arguments.length, 1, 'getItem');
      const value = s.items.get(String(key));
      return value === undefined ? null : value;
    }
    setItem(key, value) {
      const s = state(this, 'setItem');
      required(arguments.length, 2, 'setItem');
      key = String(key);
      value = String(value);
      const old = s.items.get(key);
      if (old === value) return;
      const used = s.used - (old === undefined ? 0 : key.length + old.length) + key.length + value.length;
      if (used > quota) {
        throw new QuotaExceededError(
          'Storage.setItem: the quota of ' + quota + ' UTF-16 code units (keys and values) would be exceeded',
        );
      }
      write(s, () => native.storageSet(key, value));
      s.items.set(key, value);
      s.used = used;
    }
    removeItem(key) {
      const s = state(this, 'removeItem');
      required(arguments.length, 1, 'removeItem');
      key = String(key);
      const old = s.items.get(key);
      if (old === undefined) return;
      write(s, () => native.storageRemove(key));
      s.items.delete(key);
      s.used -= key.length + old.length;
    }
    clear() {
      const s = state(this, 'clear');
      if (s.items.size === 0) return;
      write(s, () => native.storageClear());
      s.items.clear();
      s.used = 0;
    }
  }
  Object.defineProperty(Storage.prototype, Symbol.toStringTag, { value: 'Storage', configurable: true });

  // A named item is visible as a property unless the prototype chain has a property of that name.
  const named = (target, key, s) => typeof key === 'string' && s.items.has(key) && !(key in target);
  const handler = {
    get(target, key, receiver) {
      const s = stateOf.get(target);
      return named(target, key, s) ? s.items.get(key) : Reflect.get(target, key, receiver);
    },
    set(target, key, value, receiver) {
      if (typeof key !== 'string') return Reflect.set(target, key, value, receiver);
      Storage.prototype.setItem.call(target, key, value);
      return true;
    },
    has(target, key) {
      return (typeof key === 'string' && stateOf.get(target).items.has(key)) || Reflect.has(target, key);
    },
    deleteProperty(target, key) {
      if (!named(target, key, stateOf.get(target))) return Reflect.deleteProperty(target, key);
      Storage.prototype.removeItem.call(target, key);
      return true;
    },
    ownKeys(target) {
      return [...stateOf.get(target).items.keys(), ...Reflect.ownKeys(target)];
    },
    getOwnPropertyDescriptor(target, key) {
      const s = stateOf.get(target);
      if (!named(target, key, s)) return Reflect.getOwnPropertyDescriptor(target, key);
      return { value: s.items.get(key), writable: true, enumerable: true, configurable: true };
    },
    defineProperty(target, key, descriptor) {
      if (typeof key !== 'string') return Reflect.defineProperty(target, key, descriptor);
      if (!('value' in descriptor)) return false;
      Storage.prototype.setItem.call(target, key, descriptor.value);
      return true;
    },
  };

  function makeStorage(persist) {
    constructing = true;
    const target = new Storage();
    constructing = false;
    const s = { items: new Map(), used: 0, persist };
    if (persist) {
      const flat = native.storageLoad();
      for (let i = 0; i + 1 < flat.length; i += 2) {
        s.items.set(flat[i], flat[i + 1]);
        s.used += flat[i].length + flat[i + 1].length;
      }
    }
    const proxy = new Proxy(target, handler);
    stateOf.set(target, s);
    stateOf.set(proxy, s);
    return proxy;
  }

  let local, session;
  exports.Storage = Storage;
  exports.QuotaExceededError = QuotaExceededError;
  exports.localStorage = () => local || (local = makeStorage(true));
  exports.sessionStorage = () => session || (session = makeStorage(false));
});
