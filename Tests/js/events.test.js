// Event, CustomEvent and EventTarget headless, as a page has them.

test('listeners run in order, capture ones first, once removes itself', () => {
  const target = new EventTarget();
  const log = [];
  target.addEventListener('ping', () => log.push('bubble'));
  target.addEventListener('ping', () => log.push('capture'), { capture: true });
  target.addEventListener('ping', () => log.push('once'), { once: true });
  target.dispatchEvent(new Event('ping'));
  target.dispatchEvent(new Event('ping'));
  assert.deepEqual(log, ['capture', 'bubble', 'once', 'capture', 'bubble']);
});

test('the same listener is added once; removeEventListener matches on capture', () => {
  const target = new EventTarget();
  let n = 0;
  const f = () => n++;
  target.addEventListener('a', f);
  target.addEventListener('a', f);
  target.addEventListener('a', f, true);
  target.removeEventListener('a', f, true);
  target.dispatchEvent(new Event('a'));
  assert.equal(n, 1);
});

test('handleEvent objects are called with the object as this', () => {
  const target = new EventTarget();
  const listener = {
    seen: null,
    handleEvent(event) {
      this.seen = event.type;
    },
  };
  target.addEventListener('hello', listener);
  target.dispatchEvent(new Event('hello'));
  assert.equal(listener.seen, 'hello');
});

test('preventDefault works on cancelable events, not in passive listeners', () => {
  const target = new EventTarget();
  target.addEventListener('c', (e) => e.preventDefault(), { passive: true });
  assert.equal(target.dispatchEvent(new Event('c', { cancelable: true })), true);
  target.addEventListener('c', (e) => e.preventDefault());
  assert.equal(target.dispatchEvent(new Event('c', { cancelable: true })), false);
  assert.equal(target.dispatchEvent(new Event('c')), true);
});

test('stopImmediatePropagation skips the rest; target and phase are set during dispatch', () => {
  const target = new EventTarget();
  const log = [];
  target.addEventListener('s', (e) => {
    log.push([e.target === target, e.currentTarget === target, e.eventPhase]);
    e.stopImmediatePropagation();
  });
  target.addEventListener('s', () => log.push('skipped'));
  const event = new Event('s');
  target.dispatchEvent(event);
  assert.deepEqual(log, [[true, true, Event.AT_TARGET]]);
  assert.equal(event.eventPhase, Event.NONE);
  assert.equal(event.currentTarget, null);
});

test('CustomEvent carries detail; a listener that throws does not stop the others', () => {
  const target = new EventTarget();
  const seen = [];
  const errors = [];
  const onError = (e) => {
    errors.push(e.error.message);
    e.preventDefault();
  };
  addEventListener('error', onError);
  target.addEventListener('d', () => {
    throw new Error('listener failed');
  });
  target.addEventListener('d', (e) => seen.push(e.detail));
  target.dispatchEvent(new CustomEvent('d', { detail: { n: 1 } }));
  removeEventListener('error', onError);
  assert.deepEqual(seen, [{ n: 1 }]);
  assert.deepEqual(errors, ['listener failed']);
});

test('dispatching an event that is being dispatched throws InvalidStateError', () => {
  const target = new EventTarget();
  const event = new Event('x');
  let error;
  target.addEventListener('x', () => {
    try {
      target.dispatchEvent(event);
    } catch (e) {
      error = e;
    }
  });
  target.dispatchEvent(event);
  assert(error instanceof DOMException);
  assert.equal(error.name, 'InvalidStateError');
});

test('reportError fires the global error event with the error', { page: false, reason: "the headless reportError's message" }, () => {
  let seen;
  const listener = (e) => {
    seen = e;
    e.preventDefault();
  };
  addEventListener('error', listener);
  const error = new TypeError('reported');
  reportError(error);
  removeEventListener('error', listener);
  assert(seen instanceof ErrorEvent);
  assert.equal(seen.error, error);
  assert.equal(seen.message, 'Uncaught TypeError: reported');
  assert(seen.filename.endsWith('events.test.js'));
  assert(seen.lineno > 0);
});

test('an unhandled rejection fires unhandledrejection; preventDefault keeps the run going', async () => {
  const seen = await new Promise((resolve) => {
    const listener = (e) => {
      e.preventDefault();
      removeEventListener('unhandledrejection', listener);
      resolve(e);
    };
    addEventListener('unhandledrejection', listener);
    Promise.reject(new Error('nobody'));
  });
  assert(seen instanceof PromiseRejectionEvent);
  assert.equal(seen.reason.message, 'nobody');
  assert(seen.promise instanceof Promise);
});
