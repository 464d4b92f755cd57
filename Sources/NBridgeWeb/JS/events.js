// Event, CustomEvent, EventTarget, ErrorEvent and PromiseRejectionEvent by the DOM standard (one
// target, no tree), and the global object as an EventTarget. Deferred (web.js): evaluated on the
// first touch of one of its globals; returns them, with `fire` and `hasListeners` for the others,
// `eventHandler` (an `on<type>` attribute) and the global `error`/`unhandledrejection` events that
// web.js's hooks fire.
// Takes: internal.native.now, internal.native.reportError, internal.platformObjects,
//   internal.isAbortSignal and internal.addAbortAlgorithm (abort.js, once loaded).
// Gives: its function's result: the event classes, fire, hasListeners, eventHandler, uncaught,
//   unhandledRejection.
(function (global, internal) {
  'use strict';
  const native = internal.native;
  const NONE = 0, CAPTURING_PHASE = 1, AT_TARGET = 2, BUBBLING_PHASE = 3;
  const phases = { NONE, CAPTURING_PHASE, AT_TARGET, BUBBLING_PHASE };

  // An `on<type>` attribute on a prototype: the handler runs among the listeners, at the place it
  // was first set; a handler that returns false cancels the event.
  function eventHandler(proto, type) {
    const handlers = new WeakMap();
    Object.defineProperty(proto, 'on' + type, {
      get() {
        return handlers.get(this)?.value ?? null;
      },
      set(value) {
        let slot = handlers.get(this);
        if (!slot) {
          slot = { value: null };
          handlers.set(this, slot);
          this.addEventListener(type, (event) => {
            if (typeof slot.value !== 'function') return;
            if (slot.value.call(this, event) === false) event.preventDefault();
          });
        }
        slot.value = typeof value === 'function' || (value && typeof value === 'object') ? value : null;
      },
      configurable: true,
      enumerable: true,
    });
  }

  // The global `onerror`/`onunhandledrejection` are plain properties a script may assign; they are
  // called (page style: onerror gets message, filename, line, column, error; true cancels) before
  // the listeners.
  function where(error) {
    const e = error !== null && typeof error === 'object' ? error : {};
    return {
      filename: typeof e.sourceURL === 'string' ? e.sourceURL : '',
      lineno: typeof e.line === 'number' ? e.line : 0,
      colno: typeof e.column === 'number' ? e.column : 0,
    };
  }
  function describe(error) {
    try {
      return 'Uncaught ' + (error instanceof Error ? error.name + ': ' + error.message : String(error));
    } catch {
      return 'Uncaught exception';
    }
  }
  let reporting = false;

  // Fires the global `error` event for an uncaught `error`; true when a listener prevented its
  // default (the run goes on).
  function uncaught(error, { ErrorEvent, fire }) {
    const handler = global.onerror;
    if (reporting) return false;
    reporting = true;
    try {
      const { filename, lineno, colno } = where(error);
      const message = describe(error);
      const event = new ErrorEvent('error', { cancelable: true, message, filename, lineno, colno, error });
      if (typeof handler === 'function' && handler.call(global, message, filename, lineno, colno, error) === true) {
        event.preventDefault();
      }
      fire(global, event);
      return event.defaultPrevented;
    } catch {
      return false;
    } finally {
      reporting = false;
    }
  }

  // Fires the global `unhandledrejection` event; true when a listener prevented its default.
  function unhandledRejection(promise, reason, { PromiseRejectionEvent, fire }) {
    const handler = global.onunhandledrejection;
    const event = new PromiseRejectionEvent('unhandledrejection', { cancelable: true, promise, reason });
    if (typeof handler === 'function') {
      try {
        if (handler.call(global, event) === false) event.preventDefault();
      } catch (error) {
        native.reportError(error);
      }
    }
    fire(global, event);
    return event.defaultPrevented;
  }

  function build() {
    const listenersOf = new WeakMap();
    const state = new WeakMap();
    const stateOf = (event) => {
      const s = state.get(event);
      if (!s) throw new TypeError('Illegal invocation: not an Event');
      return s;
    };
    const isTrustedGetter = function isTrusted() {
      return stateOf(this).trusted;
    };

    class Event {
      constructor(type, init = undefined) {
        if (arguments.length === 0) throw new TypeError("Failed to construct 'Event': 1 argument required");
        const dict = init ?? {};
        if (typeof dict !== 'object' && typeof dict !== 'function') {
          throw new TypeError("Failed to construct 'Event': the init argument is not an object");
        }
        state.set(this, {
          type: String(type),
          bubbles: !!dict.bubbles,
          cancelable: !!dict.cancelable,
          composed: !!dict.composed,
          target: null,
          currentTarget: null,
          phase: NONE,
          stop: false,
          stopImmediate: false,
          canceled: false,
          passive: false,
          dispatching: false,
          initialized: true,
          trusted: false,
          timeStamp: native.now(),
        });
        Object.defineProperty(this, 'isTrusted', { get: isTrustedGetter, enumerable: true });
      }
      get type() {
        return stateOf(this).type;
      }
      get target() {
        return stateOf(this).target;
      }
      get srcElement() {
        return stateOf(this).target;
      }
      get currentTarget() {
        return stateOf(this).currentTarget;
      }
      composedPath() {
        const s = stateOf(this);
        return s.currentTarget ? [s.currentTarget] : [];
      }
      get eventPhase() {
        return stateOf(this).phase;
      }
      stopPropagation() {
        stateOf(this).stop = true;
      }
      get cancelBubble() {
        return stateOf(this).stop;
      }
      set cancelBubble(value) {
        if (value) stateOf(this).stop = true;
      }
      stopImmediatePropagation() {
        const s = stateOf(this);
        s.stop = s.stopImmediate = true;
      }
      get bubbles() {
        return stateOf(this).bubbles;
      }
      get cancelable() {
        return stateOf(this).cancelable;
      }
      get returnValue() {
        return !stateOf(this).canceled;
      }
      set returnValue(value) {
        if (!value) cancel(stateOf(this));
      }
      preventDefault() {
        cancel(stateOf(this));
      }
      get defaultPrevented() {
        return stateOf(this).canceled;
      }
      get composed() {
        return stateOf(this).composed;
      }
      get timeStamp() {
        return stateOf(this).timeStamp;
      }
      initEvent(type, bubbles = false, cancelable = false) {
        if (arguments.length === 0) throw new TypeError("Failed to execute 'initEvent': 1 argument required");
        const s = stateOf(this);
        if (s.dispatching) return;
        Object.assign(s, {
          type: String(type),
          bubbles: !!bubbles,
          cancelable: !!cancelable,
          initialized: true,
          stop: false,
          stopImmediate: false,
          canceled: false,
          target: null,
        });
      }
    }
    function cancel(s) {
      if (s.cancelable && !s.passive) s.canceled = true;
    }
    for (const [name, value] of Object.entries(phases)) {
      Object.defineProperty(Event, name, { value, enumerable: true });
      Object.defineProperty(Event.prototype, name, { value, enumerable: true });
    }
    Object.defineProperty(Event.prototype, Symbol.toStringTag, { value: 'Event', configurable: true });

    class CustomEvent extends Event {
      #detail;
      constructor(type, init = undefined) {
        if (arguments.length === 0) throw new TypeError("Failed to construct 'CustomEvent': 1 argument required");
        super(type, init);
        this.#detail = init?.detail ?? null;
      }
      get detail() {
        return this.#detail;
      }
      initCustomEvent(type, bubbles = false, cancelable = false, detail = null) {
        if (arguments.length === 0) throw new TypeError("Failed to execute 'initCustomEvent': 1 argument required");
        if (stateOf(this).dispatching) return;
        this.initEvent(type, bubbles, cancelable);
        this.#detail = detail;
      }
    }
    Object.defineProperty(CustomEvent.prototype, Symbol.toStringTag, { value: 'CustomEvent', configurable: true });

    class ErrorEvent extends Event {
      #init;
      constructor(type, init = undefined) {
        if (arguments.length === 0) throw new TypeError("Failed to construct 'ErrorEvent': 1 argument required");
        super(type, init);
        const i = init ?? {};
        this.#init = {
          message: i.message === undefined ? '' : String(i.message),
          filename: i.filename === undefined ? '' : String(i.filename),
          lineno: (i.lineno >>> 0) || 0,
          colno: (i.colno >>> 0) || 0,
          error: i.error,
        };
      }
      get message() {
        return this.#init.message;
      }
      get filename() {
        return this.#init.filename;
      }
      get lineno() {
        return this.#init.lineno;
      }
      get colno() {
        return this.#init.colno;
      }
      get error() {
        return this.#init.error;
      }
    }
    Object.defineProperty(ErrorEvent.prototype, Symbol.toStringTag, { value: 'ErrorEvent', configurable: true });

    class PromiseRejectionEvent extends Event {
      #promise;
      #reason;
      constructor(type, init) {
        if (arguments.length < 2) {
          throw new TypeError("Failed to construct 'PromiseRejectionEvent': 2 arguments required");
        }
        if (init === null || typeof init !== 'object' || !('promise' in init)) {
          throw new TypeError("Failed to construct 'PromiseRejectionEvent': 'promise' is required");
        }
        super(type, init);
        if (init.promise === null || (typeof init.promise !== 'object' && typeof init.promise !== 'function')) {
          throw new TypeError("Failed to construct 'PromiseRejectionEvent': 'promise' must be an object");
        }
        this.#promise = init.promise;
        this.#reason = init.reason;
      }
      get promise() {
        return this.#promise;
      }
      get reason() {
        return this.#reason;
      }
    }
    Object.defineProperty(PromiseRejectionEvent.prototype, Symbol.toStringTag, {
      value: 'PromiseRejectionEvent',
      configurable: true,
    });

    const targetOf = (self) => {
      const target = self ?? global;
      const list = listenersOf.get(target);
      if (!list) throw new TypeError('Illegal invocation: not an EventTarget');
      return list;
    };
    function flatten(options) {
      return typeof options === 'boolean' ? options : !!(options && options.capture);
    }

    class EventTarget {
      constructor() {
        listenersOf.set(this, []);
      }
      addEventListener(type, callback, options = undefined) {
        if (arguments.length < 2) throw new TypeError("Failed to execute 'addEventListener': 2 arguments required");
        const list = targetOf(this);
        const target = this ?? global;
        if (callback !== null && typeof callback !== 'object' && typeof callback !== 'function') {
          throw new TypeError("Failed to execute 'addEventListener': the callback is not an object");
        }
        const capture = flatten(options);
        let once = false, passive = null, signal = null;
        if (options && typeof options === 'object') {
          once = !!options.once;
          if (options.passive !== undefined) passive = !!options.passive;
          if (options.signal !== undefined) {
            signal = options.signal;
            if (!internal.isAbortSignal || !internal.isAbortSignal(signal)) {
              throw new TypeError("Failed to execute 'addEventListener': 'signal' is not an AbortSignal");
            }
          }
        }
        if (signal && signal.aborted) return;
        if (callback === null) return;
        type = String(type);
        if (list.some((l) => l.type === type && l.callback === callback && l.capture === capture)) return;
        const listener = { type, callback, capture, once, passive: !!passive, removed: false };
        list.push(listener);
        if (signal) internal.addAbortAlgorithm(signal, () => removeListener(target, listener));
      }
      removeEventListener(type, callback, options = undefined) {
        if (arguments.length < 2) throw new TypeError("Failed to execute 'removeEventListener': 2 arguments required");
        const list = targetOf(this);
        const capture = flatten(options);
        type = String(type);
        const listener = list.find((l) => l.type === type && l.callback === callback && l.capture === capture);
        if (listener) removeListener(this ?? global, listener);
      }
      dispatchEvent(event) {
        targetOf(this);
        const s = state.get(event);
        if (!s) throw new TypeError("Failed to execute 'dispatchEvent': parameter 1 is not of type 'Event'");
        if (s.dispatching || !s.initialized) {
          throw new DOMException(
            "Failed to execute 'dispatchEvent': the event is already being dispatched",
            'InvalidStateError',
          );
        }
        s.trusted = false;
        return dispatch(this ?? global, event, s);
      }
    }
    Object.defineProperty(EventTarget.prototype, Symbol.toStringTag, { value: 'EventTarget', configurable: true });

    function removeListener(target, listener) {
      listener.removed = true;
      const list = listenersOf.get(target);
      const at = list.indexOf(listener);
      if (at >= 0) list.splice(at, 1);
    }

    function dispatch(target, event, s) {
      s.dispatching = true;
      s.target = target;
      s.currentTarget = target;
      s.phase = AT_TARGET;
      const list = listenersOf.get(target).slice();
      invoke(target, event, s, list, true);
      if (!s.stop) invoke(target, event, s, list, false);
      s.dispatching = false;
      s.phase = NONE;
      s.currentTarget = null;
      s.stop = s.stopImmediate = false;
      return !s.canceled;
    }

    function invoke(target, event, s, list, capturePass) {
      for (const listener of list) {
        if (listener.removed || listener.type !== s.type || listener.capture !== capturePass) continue;
        if (listener.once) removeListener(target, listener);
        s.passive = listener.passive;
        try {
          const callback = listener.callback;
          if (typeof callback === 'function') {
            callback.call(target, event);
          } else {
            const handle = callback.handleEvent;
            if (typeof handle !== 'function') throw new TypeError('The listener has no handleEvent method');
            handle.call(callback, event);
          }
        } catch (error) {
          native.reportError(error);
        }
        s.passive = false;
        if (s.stopImmediate) break;
      }
    }

    /** Fires a trusted event (made by the runtime, not by script) at `target`. */
    function fire(target, event) {
      const s = state.get(event);
      s.trusted = true;
      return dispatch(target, event, s);
    }

    internal.platformObjects.add(Event.prototype);
    internal.platformObjects.add(EventTarget.prototype);
    listenersOf.set(global, []);
    let viaPrototype = false;
    try {
      Object.setPrototypeOf(global, EventTarget.prototype);
      viaPrototype = Object.getPrototypeOf(global) === EventTarget.prototype;
    } catch {
      viaPrototype = false;
    }
    const proto = EventTarget.prototype;
    const built = {
      Event,
      CustomEvent,
      EventTarget,
      ErrorEvent,
      PromiseRejectionEvent,
      addEventListener: viaPrototype ? undefined : proto.addEventListener,
      removeEventListener: viaPrototype ? undefined : proto.removeEventListener,
      dispatchEvent: viaPrototype ? undefined : proto.dispatchEvent,
      fire,
      hasListeners: (target, type) => listenersOf.get(target)?.some((l) => l.type === type) ?? false,
      eventHandler,
      uncaught: (error) => uncaught(error, built),
      unhandledRejection: (promise, reason) => unhandledRejection(promise, reason, built),
    };
    return built;
  }

  return build();
});
