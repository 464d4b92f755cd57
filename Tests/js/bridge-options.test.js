// What a call's options may be: every problem, however the value misbehaves, is a Promise
// rejected with invalid_parameter naming the path, through nbridge.x.y(options),
// nbridge.callToNative(service, action, options) and WKBridgeKit's postMessage alike; limits
// are checked before any work a claimed size would cost.

// WKBridgeKit's path: posts the command and resolves with what nbridge.resolvePromise was given.
let nextPromiseId = 1;
function postMessage(service, action, option) {
  const promiseId = nextPromiseId++;
  return new Promise((resolve, reject) => {
    nbridge.resolvePromise = (id, data, error) => {
      if (id !== promiseId) return;
      if (error) reject(Object.assign(new Error(error.message), { code: error.code }));
      else resolve(data);
    };
    webkit.messageHandlers.WKBridge.postMessage({ service, action, promiseId, option });
  });
}

const paths = {
  direct: (service, action, option) => nbridge[service][action](option),
  callToNative: (service, action, option) => nbridge.callToNative(service, action, option),
  postMessage,
};

// Calls `call` (which must not throw), expects invalid_parameter naming `path` (and `detail`).
async function refused(call, path, detail) {
  let promise;
  try {
    promise = call();
  } catch (e) {
    assert.fail('the call threw instead of returning a Promise: ' + e);
  }
  const error = await assert.rejects(promise, 'invalid_parameter');
  // `path*`: the path starts so (a long one is shortened in the middle).
  const named = path === 'options' ? ': options ' : path.endsWith('*') ? '"' + path.slice(0, -1) : '"' + path + '"';
  assert(error.message.includes(named), 'the message names ' + named + ': ' + error.message);
  if (detail) assert(error.message.includes(detail), 'the message says ' + detail + ': ' + error.message);
  return error;
}

// `fn` resolves within `ms` (a hang shows as a failure, not a stuck test file).
async function within(ms, what, fn) {
  const started = Date.now();
  await fn();
  const took = Date.now() - started;
  assert(took < ms, what + ' took ' + took + ' ms (bound ' + ms + ' ms)');
}

test('a sparse array of length 2**32-1 is refused at once, naming the path and the limit', { page: false, reason: "the headless runtime's option reader (a page blocks on this array)" }, async () => {
  const sparse = [];
  sparse.length = 2 ** 32 - 1;
  for (const [name, call] of Object.entries(paths)) {
    await within(
      2000,
      name,
      () => refused(() => call('storage', 'set', { key: 'k', value: { list: sparse } }), 'value.list', '1048576'),
    );
  }
});

test('long arrays and typed arrays are weighed by their length before their elements are read', { page: false, reason: "the headless runtime's option reader" }, async () => {
  const long = [];
  long.length = 1e7;
  await within(2000, 'length 1e7', () => refused(() => nbridge.storage.set({ key: 'k', value: long }), 'value'));
  await within(
    2000,
    'a 10 MB Uint8Array',
    () => refused(() => nbridge.storage.set({ key: 'k', value: new Uint8Array(10e6) }), 'value', '10000000'),
  );
  // As the options themselves, through each way in (their indexes would be the keys).
  for (const [name, call] of Object.entries(paths)) {
    await within(
      2000,
      name + ' with options that are a 10 M Int32Array',
      () => refused(() => call('pasteboard', 'hasString', new Int32Array(10485760)), 'options', '10485760'),
    );
  }
  // Small typed arrays convert as JSON.stringify converts them (an object of their indexes).
  assert.equal(await nbridge.storage.set({ key: 'k', value: new Uint8Array([7, 8]) }), null);
  assert.deepEqual(await nbridge.storage.get({ key: 'k' }), { 0: 7, 1: 8 });
});

test('the budget of values counts the whole options, and names where it ran out', async () => {
  const rows = [];
  for (let i = 0; i < 1100; i++) rows.push(new Array(1000).fill(0));
  const error = await refused(() => nbridge.storage.set({ key: 'k', value: rows }), 'value[1047]', '1048576');
  assert(error.message.includes('in all'), error.message);
});

test('options longer than the text limit are refused before they are written out', async () => {
  const huge = 'x'.repeat((64 << 20) + 1);
  await within(
    5000,
    'a 64 Mi string',
    () => refused(() => nbridge.storage.set({ key: 'k', value: [huge] }), 'value[0]'),
  );
  await refused(() => nbridge.storage.set({ key: 'k', value: huge }), 'value', String(64 << 20));
});

test('deep nesting is refused naming the path, 10,000 and 100,000 levels, on every path', { page: false, reason: "the headless runtime's option reader" }, async () => {
  for (const levels of [10000, 100000]) {
    let deep = {};
    for (let i = 0; i < levels; i++) deep = { a: deep };
    for (const call of Object.values(paths)) {
      const error = await refused(
        () => call('storage', 'set', { key: 'k', value: deep }),
        'value.a.a.a*',
        '512 levels',
      );
      assert(error.message.startsWith('storage.set: "value.a.a.a'), error.message);
    }
  }
  let ok = 1;
  for (let i = 0; i < 510; i++) ok = [ok];
  assert.equal(await nbridge.storage.set({ key: 'k', value: ok }), null, '511 levels are within the limit');
});

test('a cycle is named where it closes', async () => {
  const cyclic = { a: [{}] };
  cyclic.a[0].back = cyclic;
  await refused(() => nbridge.storage.set({ key: 'k', value: cyclic }), 'value.a[0].back', 'contains a cycle');
});

test('throwing getters, throwing Proxy traps and revoked Proxies reject with the path', { page: false, reason: "the headless runtime's option reader" }, async () => {
  const boom = () => {
    throw new Error('boom');
  };
  const { proxy: revoked, revoke } = Proxy.revocable({}, {});
  revoke();
  const cases = [
    [{
      key: 'k',
      get value() {
        return boom();
      },
    }, 'value'],
    [{
      key: 'k',
      value: {
        a: [1, {
          get b() {
            return boom();
          },
        }],
      },
    }, 'value.a[1].b'],
    [{ key: 'k', value: { x: revoked } }, 'value.x'],
    [{ key: 'k', value: [new Proxy({}, { ownKeys: boom })] }, 'value[0]'],
    [{ key: 'k', value: [new Proxy({ a: 1 }, { get: boom })] }, 'value[0]'],
    [{ key: 'k', value: new Proxy([1, 2], { get: (t, k) => (k === 'length' ? boom() : t[k]) }) }, 'value'],
    [{ key: 'k', value: { toJSON: boom } }, 'value'],
  ];
  for (const [name, call] of Object.entries(paths)) {
    for (const [options, path] of cases) {
      const error = await refused(() => call('storage', 'set', options), path, 'could not be read');
      assert(error.message.includes('boom') || error.message.includes('revoked'), name + ': ' + error.message);
    }
    // A getter that throws a revoked Proxy (whose prototype cannot even be asked for).
    await refused(
      () =>
        call('storage', 'set', {
          key: 'k',
          value: [{
            get x() {
              throw revoked;
            },
          }],
        }),
      'value[0].x',
      'an exception',
    );
    await refused(
      () =>
        call('storage', 'set', {
          get toJSON() {
            throw revoked;
          },
        }),
      'options',
      'an exception',
    );
    // The options object itself.
    await refused(() => call('storage', 'set', revoked), 'options', 'revoked');
    await refused(() => call('storage', 'set', new Proxy({}, { ownKeys: boom })), 'options', 'boom');
  }
});

test('a value is read once: what was checked is what is sent', async () => {
  const sparse = [];
  sparse.length = 2 ** 32 - 1;
  let reads = 0;
  const options = {
    key: 'k',
    get value() {
      reads++;
      return reads === 1 ? 'checked' : sparse;
    },
  };
  assert.equal(await nbridge.storage.set(options), null);
  assert.equal(reads, 1);
  assert.equal(await nbridge.storage.get({ key: 'k' }), 'checked');
});

test('WKBridge.postMessage answers a command that cannot be read instead of throwing', { page: false, reason: "the headless WKBridge stand-in; a page has WebKit's own" }, async () => {
  const command = new Proxy({}, {
    get(_t, name) {
      if (name === 'promiseId') return 99;
      throw new Error('no ' + String(name));
    },
  });
  const answered = new Promise((resolve) => {
    nbridge.resolvePromise = (id, data, error) => resolve([id, data, error && error.code, error && error.message]);
  });
  webkit.messageHandlers.WKBridge.postMessage(command);
  const [id, data, code, message] = await answered;
  assert.deepEqual([id, data, code], [99, 'invalid_parameter', 'invalid_parameter']);
  assert(message.includes('could not be read'), message);
});

test('callToNative with a service name that cannot be a string rejects instead of throwing', async () => {
  const bad = {
    toString() {
      throw new Error('no name');
    },
  };
  const error = await assert.rejects(nbridge.callToNative(bad, 'get', { key: 'k' }), 'invalid_parameter');
  assert(error.message.includes('"service"'), error.message);
});

test('strings that are not well-formed UTF-16 are refused naming the field, so keys never collide', { page: false, reason: "the headless runtime's option reader" }, async () => {
  for (const call of Object.values(paths)) {
    await refused(() => call('storage', 'set', { key: '\ud800', value: 1 }), 'key', 'lone surrogate');
    await refused(() => call('storage', 'set', { key: '\udbff', value: 2 }), 'key', 'U+DBFF');
  }
  await refused(() => nbridge.storage.set({ key: 'k', value: { a: ['ok', 'x\udc00'] } }), 'value.a[1]');
  await refused(() => nbridge.storage.get({ key: 'x\ud800y' }), 'key');
  await refused(() => nbridge.preference.set({ key: '\udfff', value: 1 }), 'key');
  await refused(() => nbridge.pasteboard.create({ name: '\ud800' }), 'name');
  await refused(() => nbridge.pasteboard.setString({ string: 'a\ud800' }), 'string');
  await refused(() => nbridge.notification.show({ title: 't', body: '\udc00' }), 'body');
  assert(!(await nbridge.storage.keys()).some((k) => k.includes('\ufffd')), 'nothing was stored under U+FFFD');
  // Pairs are text like any other, in keys and values.
  assert.equal(await nbridge.storage.set({ key: '\ud83d\ude00', value: { '\ud83d\udc4b': 'a\ud83d\ude00b' } }), null);
  assert.deepEqual(await nbridge.storage.get({ key: '😀' }), { '👋': 'a😀b' });
});

test('an error message quotes a huge name or value by a short prefix', async () => {
  const huge = 'x'.repeat(1 << 20);
  const cases = [
    ['invalid_service', () => nbridge.callToNative(huge, 'get', {})],
    ['invalid_service', () => nbridge[huge].get({})],
    ['invalid_action_name', () => nbridge.callToNative('storage', huge, {})],
    ['invalid_parameter', () => nbridge.background.completeFetch({ id: 1, result: huge })],
    ['invalid_parameter', () => nbridge.background.setMinimumFetchInterval({ interval: huge })],
    ['invalid_parameter', () => nbridge.notification.schedule({ title: 't', body: 'b', at: huge })],
    ['not_found', () => nbridge.notification.cancel({ id: huge })],
    ['invalid_parameter', () => nbridge.app.canOpenURL({ url: 'x'.repeat(30000) })],
  ];
  for (const [code, call] of cases) {
    const error = await assert.rejects(call(), code);
    assert(error.message.length < 400 && error.message.includes('xxx…'), 'a short message: ' + error.message.slice(0, 500));
  }
  let thrown;
  try {
    nbridge.app.addListener(huge, () => {});
  } catch (e) {
    thrown = e;
  }
  assert.equal(thrown && thrown.code, 'invalid_parameter');
  assert(thrown.message.length < 400 && thrown.message.includes('xxx…'), thrown.message.slice(0, 500));
});

test('localStorage keeps keys with lone surrogates apart', () => {
  localStorage.setItem('\ud800', 'first');
  localStorage.setItem('\udbff', 'second');
  assert.equal(localStorage.getItem('\ud800'), 'first');
  assert.equal(localStorage.getItem('\udbff'), 'second');
  localStorage.clear();
});
