// Background fetch's JS surface under nbridge test (no scheduler: nothing wakes the app here).

test('the interval starts at never and is raised to the 600 s floor', async () => {
  const status = await nbridge.background.getFetchStatus();
  assert.equal(status.interval, 'never');
  assert.equal(status.nextFetchAt, null);
  assert.deepEqual(status.history, []);
  assert.equal((await nbridge.background.setMinimumFetchInterval({ interval: 60 })).interval, 600);
  assert.equal((await nbridge.background.setMinimumFetchInterval({ interval: 'minimum' })).interval, 600);
  const set = await nbridge.background.setMinimumFetchInterval({ interval: 3600 });
  assert.equal(set.interval, 3600);
  const due = Date.parse(set.nextFetchAt) - Date.now();
  assert(due > 3500 * 1000 && due <= 3600 * 1000, 'next fetch due in about an hour, got ' + due + ' ms');
  assert.equal((await nbridge.background.setMinimumFetchInterval({ interval: 'never' })).nextFetchAt, null);
});

test('bad intervals and answers are invalid_parameter', async () => {
  await assert.rejects(nbridge.background.setMinimumFetchInterval({ interval: 'hourly' }), 'invalid_parameter');
  await assert.rejects(nbridge.background.setMinimumFetchInterval({ interval: -1 }), 'invalid_parameter');
  await assert.rejects(nbridge.background.setMinimumFetchInterval({}), 'invalid_parameter');
  await assert.rejects(nbridge.background.completeFetch({ id: 1, result: 'great' }), 'invalid_parameter');
});

test('completeFetch of a fetch never delivered is not_found', async () => {
  await assert.rejects(nbridge.background.completeFetch({ id: 1, result: 'newData' }), 'not_found');
});

test('fetch is an event of the background service', () => {
  const handle = nbridge.background.addListener('fetch', () => 'noData');
  handle.remove();
});
