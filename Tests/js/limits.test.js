// Every action that keeps or hands on a value has a limit, and a value over it is
// invalid_parameter naming the field and the limit; at the limit it is taken.

// Expects invalid_parameter naming `field` and `limit`.
async function overLimit(promise, field, limit) {
  const error = await assert.rejects(promise, 'invalid_parameter');
  assert(error.message.includes('"' + field + '" must be at most ' + limit + ' bytes'), error.message);
}

const n = nbridge.notification;

test('notification title, body, id, data and buttons have limits', async () => {
  const ok = { title: 't', body: 'b' };
  await overLimit(n.show({ ...ok, title: 'x'.repeat(1025) }), 'title', 1024);
  await overLimit(n.show({ ...ok, title: 'é'.repeat(513) }), 'title', 1024);
  await overLimit(n.show({ ...ok, body: 'x'.repeat(16 * 1024 + 1) }), 'body', 16 * 1024);
  await overLimit(n.show({ ...ok, id: 'x'.repeat(257) }), 'id', 256);
  await overLimit(n.show({ ...ok, data: { blob: 'x'.repeat(64 * 1024) } }), 'data', 64 * 1024);
  await overLimit(n.show({ ...ok, actions: [{ id: 'x'.repeat(257), title: 'Go' }] }), 'actions[0].id', 256);
  await overLimit(n.show({ ...ok, actions: [{ id: 'go', title: 'x'.repeat(257) }] }), 'actions[0].title', 256);
  await overLimit(n.schedule({ ...ok, after: 60000, title: 'x'.repeat(1025) }), 'title', 1024);
  await overLimit(n.schedule({ ...ok, after: 60000, data: ['x'.repeat(70000)] }), 'data', 64 * 1024);
  assert.deepEqual(await n.getPending(), [], 'nothing over a limit was scheduled');
  assert(!(await n.getDelivered()).some((r) => r.title.length > 1024), 'nothing over a limit was delivered');

  // At the limits.
  const full = {
    title: 'x'.repeat(1024),
    body: 'y'.repeat(16 * 1024),
    id: 'z'.repeat(256),
    data: 'd'.repeat(64 * 1024 - 2),
    actions: [{ id: 'a'.repeat(256), title: 'b'.repeat(256) }],
  };
  assert.equal((await n.show(full)).id, full.id);
  const [delivered] = await n.getDelivered();
  assert.equal(delivered.title, full.title);
  assert.equal(delivered.data, full.data);
});

test('at most 64 notifications are pending; replacing one by its id is not one more', async () => {
  for (let i = 0; i < 64; i++) await n.schedule({ title: 'later', body: '', id: 'p' + i, after: 3600000 });
  const error = await assert.rejects(n.schedule({ title: 'later', body: '', after: 3600000 }), 'unavailable');
  assert(error.message.includes('64 notifications are pending already'), error.message);
  await n.schedule({ title: 'replaced', body: '', id: 'p5', after: 3600000 });
  assert.equal((await n.getPending()).length, 64);
  for (let i = 0; i < 64; i++) await n.cancel({ id: 'p' + i });
  assert.deepEqual(await n.getPending(), []);
});

test('background.beginTask names have a limit', async () => {
  await overLimit(nbridge.background.beginTask({ name: 'x'.repeat(257) }), 'name', 256);
  const { id } = await nbridge.background.beginTask({ name: 'n'.repeat(256) });
  await nbridge.background.endTask({ id });
});

test('app.openURL and canOpenURL take URLs of at most 32 KiB without control characters', async () => {
  const long = 'nbridge-test-none:' + 'x'.repeat(32 * 1024);
  await overLimit(nbridge.app.openURL({ url: long }), 'url', 32 * 1024);
  await overLimit(nbridge.app.canOpenURL({ url: long }), 'url', 32 * 1024);
  const error = await assert.rejects(nbridge.app.canOpenURL({ url: 'x-nbridge-none:a\nb' }), 'invalid_parameter');
  assert(error.message.includes('"url" must not contain control characters'), error.message);
});

test('app.share takes at most 16 KiB of text, a 32 KiB URL and a 1 KiB title', async () => {
  await overLimit(nbridge.app.share({ text: 't'.repeat(16 * 1024 + 1) }), 'text', 16 * 1024);
  await overLimit(nbridge.app.share({ text: 't', url: 'https://x/' + 'u'.repeat(32 * 1024) }), 'url', 32 * 1024);
  await overLimit(nbridge.app.share({ text: 't', title: 's'.repeat(1025) }), 'title', 1024);
});

test('storage, preference and pasteboard state their limits the same way', async () => {
  await overLimit(nbridge.storage.set({ key: 'k'.repeat(1025), value: 1 }), 'key', 1024);
  await overLimit(nbridge.storage.set({ group: 'g'.repeat(257), key: 'k', value: 1 }), 'group', 256);
  await overLimit(nbridge.storage.set({ key: 'k', value: 'v'.repeat(1 << 20) }), 'value', 1 << 20);
  await overLimit(nbridge.preference.set({ key: 'k'.repeat(1025), value: 1 }), 'key', 1024);
  await overLimit(
    nbridge.pasteboard.setString({ string: 's'.repeat(16 * 1024 * 1024 + 1) }),
    'string',
    16 * 1024 * 1024,
  );
});
