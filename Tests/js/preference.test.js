// nbridge.preference: WKBridgeKit's preference service, on the storage plugin's store.

async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to reject, but it resolved');
}

test('get, set and remove with WKBridgeKit option names', async () => {
  assert.equal(await nbridge.preference.get({ key: 'name', defaultValue: 'nobody' }), 'nobody');
  await nbridge.preference.set({ key: 'name', value: 'Ada' });
  assert.equal(await nbridge.preference.get({ key: 'name', defaultValue: 'nobody' }), 'Ada');
  await nbridge.preference.remove({ key: 'name' });
  assert.equal(await nbridge.preference.get({ key: 'name', defaultValue: 'nobody' }), 'nobody');
  assert.equal(await nbridge.preference.get({ key: 'name' }), null);
});

test('preference and storage see the same values', async () => {
  await nbridge.storage.set({ key: 'shared', value: { from: 'storage' } });
  assert.deepEqual(await nbridge.preference.get({ key: 'shared', defaultValue: null }), { from: 'storage' });
  await nbridge.preference.set({ key: 'shared', value: [1, 'from preference'] });
  assert.deepEqual(await nbridge.storage.get({ key: 'shared' }), [1, 'from preference']);
  await nbridge.preference.remove({ key: 'shared' });
  assert.equal(await nbridge.storage.get({ key: 'shared' }), null);
  assert((await nbridge.storage.keys()).indexOf('shared') < 0, 'removed from storage keys too');
});

test('values keep their type through preference', async () => {
  for (const value of [42, 0.5, true, null, '', [], {}, { a: [1, { b: 'c' }] }, 'ünïcødé 😀']) {
    await nbridge.preference.set({ key: 'typed', value });
    assert.deepEqual(await nbridge.preference.get({ key: 'typed', defaultValue: 'default' }), value);
  }
});

test('bad input is invalid_parameter naming the field', async () => {
  let error = await rejection(nbridge.preference.get({ defaultValue: 'x' }));
  assert.equal(error.code, 'invalid_parameter');
  assert(error.message.startsWith('preference.get: "key"'), error.message);
  error = await rejection(nbridge.preference.set({ key: '', value: 'x' }));
  assert.equal(error.message, 'preference.set: "key" must be a non-empty string');
  error = await rejection(nbridge.preference.set({ key: 'k' }));
  assert.equal(error.code, 'invalid_parameter');
  assert(error.message.includes('"value"'), error.message);
});

test('preference has only WKBridgeKit actions', async () => {
  const error = await rejection(nbridge.callToNative('preference', 'clear', {}));
  assert.equal(error.code, 'invalid_action_name');
});

test("WKBridgeKit's preferenceBridge.js wrapper runs unchanged", async () => {
  // As WKBridgeKit web apps ship it: positional arguments turned into options by callToNative.
  nbridge.preference = (function (nbridge) {
    return {
      service: 'preference',
      get: function (_key, _value) {
        return nbridge.callToNative(this.service, 'get', { key: _key, defaultValue: _value });
      },
      set: function (_key, _value) {
        return nbridge.callToNative(this.service, 'set', { key: _key, value: _value });
      },
      remove: function (_key) {
        return nbridge.callToNative(this.service, 'remove', { key: _key });
      },
    };
  })(nbridge);

  assert.equal(await nbridge.preference.get('userId', 'guest'), 'guest');
  await nbridge.preference.set('userId', 'u-123');
  assert.equal(await nbridge.preference.get('userId', 'guest'), 'u-123');
  assert.equal(await nbridge.storage.get({ key: 'userId' }), 'u-123');
  await nbridge.preference.remove('userId');
  assert.equal(await nbridge.preference.get('userId', 'guest'), 'guest');
  const error = await rejection(nbridge.preference.get(undefined, 'guest'));
  assert.equal(error.code, 'invalid_parameter');
});
