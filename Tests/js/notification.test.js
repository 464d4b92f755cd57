// nbridge.notification under `nbridge test`: headless delivery (one line on stderr),
// schedules, history and every rejection. Clicks need a desktop: see the Swift
// end-to-end tests against dunst.

const n = nbridge.notification;
const isoTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function nextEvent(event, predicate = () => true) {
  return new Promise((resolve) => {
    const handle = n.addListener(event, (payload) => {
      if (!predicate(payload)) return;
      handle.remove();
      resolve(payload);
    });
  });
}

async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

test('show delivers now, emits received and records it', async () => {
  const received = nextEvent('received', (r) => r.title === 'Copied');
  const { id } = await n.show({ title: 'Copied', body: "'Retina' means a screen", data: { word: 'Retina' } });
  assert.equal(typeof id, 'string');
  assert(id.length > 0, 'a generated id');
  const record = await received;
  assert.equal(record.id, id);
  assert.equal(record.body, "'Retina' means a screen");
  assert.deepEqual(record.data, { word: 'Retina' });
  assert(isoTime.test(record.at), `at is ISO 8601: ${record.at}`);
  assert(isoTime.test(record.deliveredAt), `deliveredAt is ISO 8601: ${record.deliveredAt}`);
  assert.equal(record.every, undefined);
  const delivered = await n.getDelivered();
  assert.deepEqual(delivered[0], record);
});

test('show keeps a given id; data defaults to null; history is newest first', async () => {
  await n.show({ title: 'first', body: '', id: 'one' });
  await n.show({ title: 'second', body: '', id: 'two' });
  const delivered = await n.getDelivered();
  assert.deepEqual(delivered.slice(0, 2).map((r) => r.id), ['two', 'one']);
  assert.equal(delivered[0].data, null);
});

test('show takes action buttons', async () => {
  const { id } = await n.show({
    title: 'Background fetch finished', body: '3 new', actions: [{ id: 'open', title: 'Open' }, { id: 'later', title: 'Later' }],
  });
  assert.equal((await n.getDelivered())[0].id, id);
});

test('schedule after a delay is pending, then delivered', async () => {
  // A second out: long enough that a loaded machine still finds it pending on the next call.
  const received = nextEvent('received', (r) => r.id === 'soon');
  const { id } = await n.schedule({ title: 'Soon', body: 'in a second', after: 1000, id: 'soon' });
  assert.equal(id, 'soon');
  const pending = await n.getPending();
  assert.deepEqual(pending.map((r) => r.id), ['soon']);
  assert(isoTime.test(pending[0].at));
  assert.equal(pending[0].deliveredAt, undefined);
  const record = await received;
  assert(Date.parse(record.deliveredAt) >= Date.parse(pending[0].at), 'delivered no earlier than due');
  assert.deepEqual(await n.getPending(), []);
  assert.equal((await n.getDelivered())[0].id, 'soon');
});

test('schedule at a time: ISO 8601, epoch milliseconds or a Date; a past time delivers at once', async () => {
  const due = Date.now() + 60000;
  await n.schedule({ title: 'iso', body: '', id: 'iso', at: new Date(due).toISOString() });
  await n.schedule({ title: 'ms', body: '', id: 'ms', at: due + 1000 });
  await n.schedule({ title: 'date', body: '', id: 'date', at: new Date(due + 2000) });
  const pending = await n.getPending();
  assert.deepEqual(pending.map((r) => r.id), ['iso', 'ms', 'date']);
  assert.equal(Date.parse(pending[0].at), due);
  for (const id of ['iso', 'ms', 'date']) await n.cancel({ id });

  const received = nextEvent('received', (r) => r.id === 'past');
  await n.schedule({ title: 'past', body: '', id: 'past', at: '2001-01-01T00:00:00Z' });
  const record = await received;
  assert.equal(record.at, '2001-01-01T00:00:00.000Z');
});

test('every repeats until cancelled', async () => {
  const times = [];
  const third = new Promise((resolve) => {
    const handle = n.addListener('received', (r) => {
      if (r.id !== 'tick') return;
      times.push(r);
      if (times.length === 3) {
        handle.remove();
        resolve();
      }
    });
  });
  await n.schedule({ title: 'tick', body: '', id: 'tick', every: 100 });
  const [pending] = await n.getPending();
  assert.equal(pending.every, 100);
  await third;
  assert.equal(times[0].every, 100);
  await n.cancel({ id: 'tick' });
  assert.deepEqual(await n.getPending(), []);
});

test('scheduling an id again replaces the pending one', async () => {
  await n.schedule({ title: 'old', body: '', id: 'same', after: 60000 });
  await n.schedule({ title: 'new', body: '', id: 'same', after: 60000 });
  const pending = await n.getPending();
  assert.deepEqual(pending.map((r) => r.title), ['new']);
  await n.cancel({ id: 'same' });
});

test('cancel of an unknown id is not_found', async () => {
  await assert.rejects(n.cancel({ id: 'never-seen' }), 'not_found');
});

test('bad input is invalid_parameter naming the field', async () => {
  const cases = [
    [n.show({ body: 'no title' }), 'title'],
    [n.show({ title: '', body: '' }), 'title'],
    [n.schedule({ title: 't', body: '', at: 'next tuesday' }), 'at'],
    [n.schedule({ title: 't', body: '', after: -5 }), 'after'],
    [n.schedule({ title: 't', body: '', at: Date.now() + 1000, after: 1000 }), 'after'],
    [n.schedule({ title: 't', body: '' }), 'at'],
    [n.schedule({ title: 't', body: '', every: 10 }), 'every'],
    [n.show({ title: 't', body: '', actions: Array.from({ length: 9 }, (_, i) => ({ id: `a${i}`, title: 'A' })) }), 'actions'],
    [n.show({ title: 't', body: '', actions: [{ id: 'default', title: 'A' }] }), 'actions[0].id'],
    [n.cancel({}), 'id'],
  ];
  for (const [promise, field] of cases) {
    const error = await rejection(promise);
    assert.equal(error.code, 'invalid_parameter');
    assert(error.message.includes(`"${field}"`), `${error.message} names "${field}"`);
  }
  assert.deepEqual(await n.getPending(), []);
});

test('checkPermission and requestPermission answer granted', async () => {
  assert.equal(await n.checkPermission(), 'granted');
  assert.equal(await n.requestPermission(), 'granted');
});
