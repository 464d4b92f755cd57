// AbortController and AbortSignal headless.

test('abort() sets aborted and a default AbortError reason, fires abort once', () => {
  const controller = new AbortController();
  const signal = controller.signal;
  let fired = 0;
  signal.addEventListener('abort', () => fired++);
  signal.onabort = (e) => assert.equal(e.type, 'abort');
  controller.abort();
  controller.abort();
  assert.equal(signal.aborted, true);
  assert(signal.reason instanceof DOMException);
  assert.equal(signal.reason.name, 'AbortError');
  assert.equal(signal.reason.code, 20);
  assert.equal(fired, 1);
  assert.throws(() => signal.throwIfAborted(), 'AbortError');
});

test('a given reason is kept as is', () => {
  const controller = new AbortController();
  const reason = { why: 'user left' };
  controller.abort(reason);
  assert.equal(controller.signal.reason, reason);
  assert.equal(AbortSignal.abort('r').reason, 'r');
});

test('AbortSignal.timeout aborts with a TimeoutError', async () => {
  const signal = AbortSignal.timeout(5);
  assert.equal(signal.aborted, false);
  await new Promise((resolve) => signal.addEventListener('abort', resolve));
  assert.equal(signal.reason.name, 'TimeoutError');
  assert.equal(signal.reason.code, 23);
  assert.throws(() => AbortSignal.timeout(-1));
});

test('AbortSignal.any follows the first of its signals to abort', () => {
  const a = new AbortController(), b = new AbortController();
  const any = AbortSignal.any([a.signal, b.signal]);
  const nested = AbortSignal.any([any]);
  b.abort('b first');
  a.abort('a later');
  assert.equal(any.reason, 'b first');
  assert.equal(nested.reason, 'b first');
  assert.equal(AbortSignal.any([AbortSignal.abort('x')]).aborted, true);
});

test('a signal option removes the listener when it aborts', () => {
  const target = new EventTarget();
  const controller = new AbortController();
  let n = 0;
  target.addEventListener('t', () => n++, { signal: controller.signal });
  target.dispatchEvent(new Event('t'));
  controller.abort();
  target.dispatchEvent(new Event('t'));
  target.addEventListener('t', () => n++, { signal: controller.signal });
  target.dispatchEvent(new Event('t'));
  assert.equal(n, 1);
});

test('AbortSignal has no public constructor', () => {
  assert.throws(() => new AbortSignal());
});
