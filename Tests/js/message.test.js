// MessageChannel, MessagePort and MessageEvent as a script sees them.

const nextMessage = (port) => new Promise((resolve) => port.addEventListener('message', resolve, { once: true }));

// A task queued now runs after every message delivery already queued (each is a task queued
// when its message is posted, or when start() lets held ones go): what has not arrived by then
// was not sent.
const afterQueuedTasks = () => new Promise((resolve) => setTimeout(resolve, 0));

test('a message posted on one port arrives at the other as a clone, in a later task', async () => {
  const { port1, port2 } = new MessageChannel();
  const seen = [];
  let both;
  const arrived = new Promise((resolve) => (both = resolve));
  port2.onmessage = (event) => seen.push(event) === 2 && both();
  const sent = { list: [1, 2], when: new Date(5), map: new Map([['k', 'v']]) };
  port1.postMessage(sent);
  port1.postMessage('second');
  assert.equal(seen.length, 0);
  await arrived;
  assert.equal(seen.length, 2);
  assert.ok(seen[0] instanceof MessageEvent);
  assert.equal(seen[0].type, 'message');
  assert.deepEqual(seen[0].data.list, [1, 2]);
  assert.notEqual(seen[0].data, sent);
  assert.equal(seen[0].data.when.getTime(), 5);
  assert.equal(seen[0].data.map.get('k'), 'v');
  assert.equal(seen[1].data, 'second');
  assert.deepEqual([...seen[0].ports], []);
  assert.equal(String(port1), '[object MessagePort]');
  port1.close();
});

test('addEventListener waits for start(); messages posted before it are kept', { page: false, reason: "the headless MessagePort; a page has WebKit's own" }, async () => {
  const { port1, port2 } = new MessageChannel();
  const seen = [];
  port2.addEventListener('message', (event) => seen.push(event.data));
  port1.postMessage('early');
  await afterQueuedTasks();
  assert.deepEqual(seen, []);
  port2.start();
  await afterQueuedTasks();
  assert.deepEqual(seen, ['early']);
  port2.postMessage('back');
  port1.start();
  assert.equal((await nextMessage(port1)).data, 'back');
});

test('close() stops delivery both ways; a closed port posts nothing', async () => {
  const { port1, port2 } = new MessageChannel();
  const seen = [];
  port2.onmessage = (event) => seen.push(event.data);
  port1.postMessage('queued');
  port2.close();
  port1.postMessage('after');
  port2.postMessage('from closed');
  await afterQueuedTasks();
  assert.deepEqual(seen, []);
});

test('transfer moves a port: the receiver gets a working port, the sent one is closed', async () => {
  const outer = new MessageChannel();
  const inner = new MessageChannel();
  outer.port2.start();
  const arriving = nextMessage(outer.port2);
  outer.port1.postMessage({ reply: inner.port1 }, [inner.port1]);
  const event = await arriving;
  assert.equal(event.ports.length, 1);
  assert.ok(Object.isFrozen(event.ports));
  const moved = event.ports[0];
  assert.ok(moved instanceof MessagePort);
  assert.equal(event.data.reply, moved);
  assert.notEqual(moved, inner.port1);
  assert.equal(await new Blob(event.ports).text(), '[object MessagePort]');
  inner.port2.start();
  const reply = nextMessage(inner.port2);
  moved.postMessage('through the moved port');
  assert.equal((await reply).data, 'through the moved port');
  assert.throws(() => outer.port1.postMessage(null, [inner.port1]), 'DataCloneError');
  assert.throws(() => outer.port1.postMessage(null, [outer.port1]), 'DataCloneError');
  assert.throws(() => outer.port1.postMessage(null, [outer.port2]), 'DataCloneError');
  assert.throws(() => outer.port1.postMessage(() => 1), 'DataCloneError');
  assert.throws(() => outer.port1.postMessage(null, [{}]), 'DataCloneError');
  const kept = new MessageChannel();
  assert.throws(() => outer.port1.postMessage([kept.port1, () => 1], [kept.port1]), 'DataCloneError');
  kept.port2.start();
  const stillThere = nextMessage(kept.port2);
  kept.port1.postMessage('not moved');
  assert.equal((await stillThere).data, 'not moved');
});

test('transfer of an ArrayBuffer hands over its bytes', async () => {
  const { port1, port2 } = new MessageChannel();
  port2.start();
  const buffer = new Uint8Array([1, 2, 3]).buffer;
  const arriving = nextMessage(port2);
  port1.postMessage(buffer, { transfer: [buffer] });
  const received = (await arriving).data;
  assert.deepEqual(Array.from(new Uint8Array(received)), [1, 2, 3]);
  assert.notEqual(received, buffer);
});

test('MessagePort cannot be constructed; MessageEvent can, and structuredClone refuses ports', { page: false, reason: "the headless MessagePort; a page has WebKit's own" }, () => {
  assert.throws(() => new MessagePort(), 'TypeError');
  const event = new MessageEvent('message', { data: 7, origin: 'x' });
  assert.equal(event.data, 7);
  assert.equal(event.origin, 'x');
  assert.equal(event.source, null);
  assert.throws(() => structuredClone(new MessageChannel().port1), 'DataCloneError');
});

test('structuredClone with transfer moves ArrayBuffers and ports, and refuses bad lists', async () => {
  const buffer = new Uint8Array([1, 2, 3]).buffer;
  const copy = structuredClone({ b: buffer, again: buffer }, { transfer: [buffer] });
  assert.equal(buffer.byteLength, 0);
  assert.equal(buffer.detached, true);
  assert.deepEqual([...new Uint8Array(copy.b)], [1, 2, 3]);
  assert.equal(copy.again, copy.b);
  assert.throws(() => structuredClone(1, { transfer: [buffer] }), 'DataCloneError');
  const other = new ArrayBuffer(4);
  assert.throws(() => structuredClone(1, { transfer: [other, other] }), 'DataCloneError');
  assert.equal(other.byteLength, 4);
  assert.throws(() => structuredClone(1, { transfer: 5 }), 'TypeError');
  assert.throws(() => structuredClone(1, { transfer: [{}] }), 'DataCloneError');
  const { port1, port2 } = new MessageChannel();
  const moved = structuredClone({ port: port1 }, { transfer: [port1] }).port;
  assert.ok(moved instanceof MessagePort && moved !== port1);
  const got = new Promise((resolve) => (port2.onmessage = (e) => resolve(e.data)));
  moved.postMessage('through the moved port');
  assert.equal(await got, 'through the moved port');
});
