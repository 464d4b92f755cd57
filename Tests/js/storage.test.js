// nbridge.storage: every action, every value type, every error code.

async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to reject, but it resolved');
}

async function expectInvalid(promise, field, action) {
  const error = await rejection(promise);
  assert.equal(error.code, 'invalid_parameter');
  assert(error.message.startsWith('storage.' + action + ': '), 'message names the call: ' + error.message);
  // The field itself, quoted, or a path inside it ("value.a[2]").
  const named = ['"', '.', '['].some((end) => error.message.includes('"' + field + end));
  assert(named, 'message names "' + field + '": ' + error.message);
  return error;
}

const values = {
  string: 'hello',
  unicode: 'héllo wörld ✓ 日本語 😀 e\u0301 \u0000 end',
  emptyString: '',
  escapes: 'a "quoted" \\ back\nslash\ttab\u001f',
  zero: 0,
  negative: -42,
  maxSafe: 9007199254740991,
  twoTo53: 9007199254740992,
  minSafe: -9007199254740991,
  float: 0.1,
  tiny: 1e-7,
  huge: 1.7976931348623157e308,
  negativeFloat: -3.25,
  yes: true,
  no: false,
  nothing: null,
  emptyArray: [],
  emptyObject: {},
  array: [1, 'two', [3, [4]], { five: 5 }, null, false],
  nested: { a: { b: { c: [1, 2, { d: 'deep' }] } }, 'key with spaces': '', '': 'empty key' },
};

test('every kind of JSON value comes back with its type', async () => {
  for (const [key, value] of Object.entries(values)) {
    await nbridge.storage.set({ key, value });
  }
  for (const [key, value] of Object.entries(values)) {
    const got = await nbridge.storage.get({ key });
    assert.deepEqual(got, value, key);
    assert.equal(typeof got, typeof value, key + ' keeps its type');
  }
  assert.equal(Object.is(await nbridge.storage.get({ key: 'twoTo53' }), 9007199254740992), true);
  assert(Array.isArray(await nbridge.storage.get({ key: 'emptyArray' })), 'an empty array stays an array');
});

test('a missing key gives defaultValue, else null', async () => {
  assert.equal(await nbridge.storage.get({ key: 'never-set' }), null);
  assert.equal(await nbridge.storage.get({ key: 'never-set', defaultValue: 7 }), 7);
  assert.deepEqual(await nbridge.storage.get({ key: 'never-set', defaultValue: { a: [1] } }), { a: [1] });
  await nbridge.storage.set({ key: 'stored-null', value: null });
  assert.equal(await nbridge.storage.get({ key: 'stored-null', defaultValue: 'fallback' }), null);
});

test('set replaces, remove removes, and both resolve to undefined or null', async () => {
  const result = await nbridge.storage.set({ key: 'theme', value: 'light' });
  assert(result === null || result === undefined, 'set resolves with nothing');
  await nbridge.storage.set({ key: 'theme', value: { mode: 'dark' } });
  assert.deepEqual(await nbridge.storage.get({ key: 'theme' }), { mode: 'dark' });
  await nbridge.storage.remove({ key: 'theme' });
  assert.equal(await nbridge.storage.get({ key: 'theme' }), null);
  await nbridge.storage.remove({ key: 'theme' });
});

test('keys are listed sorted, per group', async () => {
  await nbridge.storage.clear();
  await nbridge.storage.set({ key: 'b', value: 1 });
  await nbridge.storage.set({ key: 'a', value: 2 });
  await nbridge.storage.set({ key: 'é', value: 3 });
  await nbridge.storage.set({ key: 'z', value: 4, group: 'other' });
  assert.deepEqual(await nbridge.storage.keys(), ['a', 'b', 'é']);
  assert.deepEqual(await nbridge.storage.keys({}), ['a', 'b', 'é']);
  assert.deepEqual(await nbridge.storage.keys({ group: 'other' }), ['z']);
  assert.deepEqual(await nbridge.storage.keys({ group: 'empty' }), []);
});

test('groups are separate namespaces and clear empties only one', async () => {
  await nbridge.storage.set({ key: 'k', value: 'default' });
  await nbridge.storage.set({ key: 'k', value: 'work', group: 'work' });
  await nbridge.storage.set({ key: 'k', value: 'home', group: 'home' });
  assert.equal(await nbridge.storage.get({ key: 'k' }), 'default');
  assert.equal(await nbridge.storage.get({ key: 'k', group: 'work' }), 'work');
  await nbridge.storage.clear({ group: 'work' });
  assert.equal(await nbridge.storage.get({ key: 'k', group: 'work' }), null);
  assert.equal(await nbridge.storage.get({ key: 'k', group: 'home' }), 'home');
  assert.equal(await nbridge.storage.get({ key: 'k' }), 'default');
  await nbridge.storage.remove({ key: 'k', group: 'home' });
  assert.deepEqual(await nbridge.storage.keys({ group: 'home' }), []);
  await nbridge.storage.clear();
  assert.deepEqual(await nbridge.storage.keys(), []);
});

test('keys differing only in Unicode normalization are two keys', async () => {
  await nbridge.storage.set({ key: 'caf\u00e9', value: 'composed' });
  await nbridge.storage.set({ key: 'cafe\u0301', value: 'decomposed' });
  assert.equal(await nbridge.storage.get({ key: 'caf\u00e9' }), 'composed');
  assert.equal(await nbridge.storage.get({ key: 'cafe\u0301' }), 'decomposed');
});

test('a read sees a set that has not resolved yet', async () => {
  const pending = nbridge.storage.set({ key: 'early', value: [1, 2, 3] });
  assert.deepEqual(await nbridge.storage.get({ key: 'early' }), [1, 2, 3]);
  const removal = nbridge.storage.remove({ key: 'early' });
  assert.equal(await nbridge.storage.get({ key: 'early' }), null);
  await Promise.all([pending, removal]);
  assert.equal(await nbridge.storage.get({ key: 'early' }), null);
});

test('10,000 sets fired at once all resolve and are all stored', async () => {
  const sets = [];
  for (let i = 0; i < 10000; i++) sets.push(nbridge.storage.set({ key: 'bulk' + i, value: i, group: 'bulk' }));
  const results = await Promise.all(sets);
  assert.equal(results.length, 10000);
  assert.equal((await nbridge.storage.keys({ group: 'bulk' })).length, 10000);
  assert.equal(await nbridge.storage.get({ key: 'bulk9999', group: 'bulk' }), 9999);
});

test('the sets of one transaction are acknowledged together, in the order they were made', {
  page: false,
  reason: "a page's calls are answered one message each",
}, async () => {
  const settled = [];
  const sets = [];
  for (let i = 0; i < 100; i++) {
    sets.push(nbridge.storage.set({ key: 'together' + i, value: i }).then(() => settled.push(i)));
  }
  // The first set, made on its own, commits in its call; the 99 after it share one transaction.
  // Its first caller resumes a microtask after its set resolved: the whole transaction has been
  // acknowledged by then, not only the writes before it.
  await sets[1];
  await null;
  assert.equal(settled.length, 100);
  assert.deepEqual(settled, [...Array(100).keys()]);
  await Promise.all(sets);
  assert.equal(await nbridge.storage.get({ key: 'together99' }), 99);
});

test('writes made in one turn apply in order, and a bad one among them rejects alone naming its field', async () => {
  const outcomes = await Promise.allSettled([
    nbridge.storage.set({ key: 'turn1', value: 1 }),
    nbridge.storage.set({ key: 'turn2', value: 2 }),
    nbridge.storage.set({ key: '', value: 3 }),
    nbridge.storage.remove({ key: 'turn1' }),
    nbridge.storage.set({ key: 'turn2', value: 'last' }),
    nbridge.storage.remove({ key: 12 }),
    nbridge.callToNative('storage', 'set', { key: 'turn3', value: [3] }),
  ]);
  assert.deepEqual(outcomes.map((o) => o.status), [
    'fulfilled',
    'fulfilled',
    'rejected',
    'fulfilled',
    'fulfilled',
    'rejected',
    'fulfilled',
  ]);
  assert.equal(outcomes[2].reason.code, 'invalid_parameter');
  assert.equal(outcomes[2].reason.message, 'storage.set: "key" must be a non-empty string');
  assert.equal(outcomes[5].reason.code, 'invalid_parameter');
  assert(outcomes[5].reason.message.startsWith('storage.remove: "key" '), outcomes[5].reason.message);
  assert.equal(await nbridge.storage.get({ key: 'turn1' }), null);
  assert.equal(await nbridge.storage.get({ key: 'turn2' }), 'last');
  assert.deepEqual(await nbridge.storage.get({ key: 'turn3' }), [3]);
});

test('the callToNative form reaches the same store', async () => {
  await nbridge.callToNative('storage', 'set', { key: 'via', value: 'callToNative' });
  assert.equal(await nbridge.storage.get({ key: 'via' }), 'callToNative');
});

test('a missing, empty or non-string key is invalid_parameter naming "key"', async () => {
  await expectInvalid(nbridge.storage.get({}), 'key', 'get');
  await expectInvalid(nbridge.storage.set({ value: 1 }), 'key', 'set');
  await expectInvalid(nbridge.storage.set({ key: '', value: 1 }), 'key', 'set');
  await expectInvalid(nbridge.storage.set({ key: 12, value: 1 }), 'key', 'set');
  await expectInvalid(nbridge.storage.set({ key: null, value: 1 }), 'key', 'set');
  await expectInvalid(nbridge.storage.set({ key: { k: 1 }, value: 1 }), 'key', 'set');
  await expectInvalid(nbridge.storage.remove({ key: '' }), 'key', 'remove');
  const error = await rejection(nbridge.storage.set({ key: '', value: 1 }));
  assert.equal(error.message, 'storage.set: "key" must be a non-empty string');
  assert.equal(error.name, 'NBridgeError');
});

test('a value that is not JSON is invalid_parameter naming "value"', async () => {
  await expectInvalid(nbridge.storage.set({ key: 'k' }), 'value', 'set');
  await expectInvalid(nbridge.storage.set({ key: 'k', value: undefined }), 'value', 'set');
  await expectInvalid(nbridge.storage.set({ key: 'k', value: () => 1 }), 'value', 'set');
  await expectInvalid(nbridge.storage.set({ key: 'k', value: { nested: [1, () => 2] } }), 'value', 'set');
  await expectInvalid(nbridge.storage.set({ key: 'k', value: NaN }), 'value', 'set');
  assert.equal(await nbridge.storage.get({ key: 'k' }), null, 'nothing was half-written');
});

test('keys, groups and values over the documented limits are invalid_parameter', async () => {
  await nbridge.storage.set({ key: 'x'.repeat(1024), value: 'longest key' });
  assert.equal(await nbridge.storage.get({ key: 'x'.repeat(1024) }), 'longest key');
  await expectInvalid(nbridge.storage.set({ key: 'x'.repeat(1025), value: 1 }), 'key', 'set');
  await expectInvalid(nbridge.storage.get({ key: 'é'.repeat(513) }), 'key', 'get');
  await expectInvalid(nbridge.storage.keys({ group: 'g'.repeat(257) }), 'group', 'keys');
  await expectInvalid(nbridge.storage.clear({ group: '' }), 'group', 'clear');
  await expectInvalid(nbridge.storage.get({ key: 'k', group: 5 }), 'group', 'get');
  const big = 'v'.repeat(1024 * 1024 - 2);
  await nbridge.storage.set({ key: 'big', value: big });
  assert.equal((await nbridge.storage.get({ key: 'big' })).length, big.length);
  const error = await expectInvalid(nbridge.storage.set({ key: 'big', value: big + 'v' }), 'value', 'set');
  assert(error.message.includes('1048576'), 'the message gives the limit: ' + error.message);
  assert.equal((await nbridge.storage.get({ key: 'big' })).length, big.length, 'the old value is kept');
});

test('an unknown action is invalid_action_name', async () => {
  const error = await rejection(nbridge.callToNative('storage', 'setAll', {}));
  assert.equal(error.code, 'invalid_action_name');
});
