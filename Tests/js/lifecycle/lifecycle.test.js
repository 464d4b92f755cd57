// The lifecycle as scripted tests drive it with simulate(); this folder's nbridge.json sets a
// 2 s budget of background time.

const within = (value, low, high, what) =>
  assert(value >= low && value <= high, what + ' was ' + value + ', expected ' + low + ' to ' + high);

test('getState starts active', async () => {
  assert.deepEqual(await nbridge.app.getState(), { state: 'active', isActive: true });
});

test('events come in Capacitor order, with WKBridgeKit listeners beside pause and resume', { page: false, reason: "simulate() drives the headless lifecycle only" }, async () => {
  const seen = [];
  const handles = [
    nbridge.app.addListener('stateChange', (s) => seen.push('stateChange ' + s.state + ' ' + s.isActive)),
    nbridge.app.addListener('pause', () => seen.push('pause')),
    nbridge.app.addListener('resume', () => seen.push('resume')),
  ];
  nbridge.callPauseListener = () => seen.push('callPauseListener');
  nbridge.callResumeListener = () => seen.push('callResumeListener');
  try {
    await simulate('inactive');
    assert.deepEqual(await nbridge.app.getState(), { state: 'inactive', isActive: false });
    await simulate('background', { for: 100 });
    await simulate('inactive');
    await simulate('foreground');
    assert.deepEqual(seen, [
      'stateChange inactive false',
      'stateChange background false',
      'pause',
      'callPauseListener',
      'resume',
      'callResumeListener',
      'stateChange active true',
      'stateChange inactive false',
      'stateChange active true',
    ]);
  } finally {
    handles.forEach((h) => h.remove());
    delete nbridge.callPauseListener;
    delete nbridge.callResumeListener;
  }
});

test('a setInterval is frozen while suspended and goes on in order after resume', { page: false, reason: "simulate() drives the headless lifecycle only" }, async () => {
  const ticks = [];
  let n = 0;
  const id = setInterval(() => ticks.push({ n: ++n, at: Date.now() }), 40);
  await new Promise((r) => setTimeout(r, 150));
  const suspendedFrom = Date.now();
  await simulate('background', { for: 600 });
  const resumedAt = Date.now();
  await new Promise((r) => setTimeout(r, 150));
  clearInterval(id);
  assert(resumedAt - suspendedFrom >= 550, 'simulate resolved after ' + (resumedAt - suspendedFrom) + ' ms');
  const during = ticks.filter((t) => t.at > suspendedFrom + 20 && t.at < resumedAt - 20);
  assert.deepEqual(during, [], 'ticks ran while suspended');
  assert(ticks.some((t) => t.at >= resumedAt - 20), 'the interval did not go on after resume');
  assert.deepEqual(ticks.map((t) => t.n), ticks.map((_, i) => i + 1));
});

test('a timer set in the pause listener waits for resume', { page: false, reason: "simulate() drives the headless lifecycle only" }, async () => {
  const order = [];
  let timerRan;
  const ran = new Promise((resolve) => (timerRan = resolve));
  nbridge.app.addListener('resume', () => order.push('resume'));
  nbridge.app.addListener('pause', () => {
    order.push('pause');
    setTimeout(() => timerRan(order.push('timer')), 0);
  });
  await simulate('background', { for: 300 });
  await ran;
  nbridge.app.removeAllListeners();
  assert.deepEqual(order, ['pause', 'resume', 'timer']);
});

test('an open task keeps the app running in background; timeRemaining counts down', { page: false, reason: "simulate() drives the headless lifecycle only" }, async () => {
  assert.equal(await nbridge.background.timeRemaining(), null);
  const { id } = await nbridge.background.beginTask({ name: 'upload' });
  await simulate('background');
  const ticks = [];
  await new Promise((r) => setTimeout(r, 200)).then(() => ticks.push('ran'));
  assert.deepEqual(ticks, ['ran']);
  within(await nbridge.background.timeRemaining(), 1.5, 1.85, 'timeRemaining');
  await nbridge.background.endTask({ id });
  await assert.rejects(nbridge.background.endTask({ id }), 'not_found');
  await simulate('foreground');
  assert.equal(await nbridge.background.timeRemaining(), null);
});

test('a 2 s budget: expiration at 1 s, tasks ended at 2 s, then beginTask is unavailable', { page: false, reason: "simulate() drives the headless lifecycle only" }, async () => {
  const first = await nbridge.background.beginTask({ name: 'upload' });
  const second = await nbridge.background.beginTask();
  let pausedAt = 0;
  const expirations = [];
  nbridge.app.addListener('pause', () => pausedAt = Date.now());
  nbridge.background.addListener('expiration', (e) => expirations.push({ ...e, after: Date.now() - pausedAt }));
  // Background for 2.6 s, then inactive: the budget counts until the app is active again.
  await simulate('background', { for: 2600, then: 'inactive' });
  assert.deepEqual(expirations.map((e) => [e.id, e.name]), [[first.id, 'upload'], [second.id, null]]);
  // At half the budget (1 s): not before, and before the budget's end (room for a loaded machine).
  for (const e of expirations) within(e.after, 850, 1900, 'expiration');
  await assert.rejects(nbridge.background.endTask({ id: first.id }), 'not_found');
  let refusal;
  nbridge.app.addListener('pause', () => {
    refusal = nbridge.background.beginTask().then(() => 'began', (e) => e.code);
  });
  await simulate('background', { for: 100 });
  nbridge.app.removeAllListeners();
  nbridge.background.removeAllListeners();
  assert.equal(await refusal, 'unavailable');
  // Active again: a fresh budget.
  const again = await nbridge.background.beginTask();
  await nbridge.background.endTask({ id: again.id });
});

test('simulate checks its arguments', () => {
  assert.throws(() => simulate('asleep'), 'TypeError');
  assert.throws(() => simulate('background', { for: -1 }), 'TypeError');
});
