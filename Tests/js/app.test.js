// nbridge.app: appInfo, deviceInfo, exit's validation (exit itself is tested by running nbridge), and the
// headless answers of the desktop's and the page's actions.

async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to reject, but it resolved');
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('appInfo has the manifest fields and this first launch', async () => {
  const info = await nbridge.app.appInfo();
  assert.deepEqual(Object.keys(info).sort(), [
    'build',
    'daysSinceFirstLaunch',
    'firstLaunchDate',
    'id',
    'launchCount',
    'name',
    'version',
  ]);
  for (const field of ['id', 'name', 'version', 'build']) {
    assert.equal(typeof info[field], 'string', field);
    assert(info[field].length > 0, field + ' is not empty');
  }
  assert.equal(info.launchCount, 1, 'a fresh data dir has seen one launch: this one');
  assert.equal(info.daysSinceFirstLaunch, 0);
  assert(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(info.firstLaunchDate), info.firstLaunchDate);
  const first = Date.parse(info.firstLaunchDate);
  assert(Math.abs(Date.now() - first) < 10 * 60 * 1000, 'the first launch is this run: ' + info.firstLaunchDate);
  assert.equal(new Date(first).toISOString(), info.firstLaunchDate);
});

test('a run counts once however often appInfo is called', async () => {
  const a = await nbridge.app.appInfo();
  const b = await nbridge.app.appInfo();
  assert.equal(a.launchCount, b.launchCount);
  assert.equal(a.firstLaunchDate, b.firstLaunchDate);
});

test('deviceInfo describes this Linux machine', async () => {
  const device = await nbridge.app.deviceInfo();
  assert.deepEqual(Object.keys(device).sort(), [
    'arch',
    'deviceId',
    'language',
    'manufacturer',
    'model',
    'osVersion',
    'platform',
    'region',
    'version',
  ]);
  assert.equal(device.platform, 'linux');
  assert.equal(device.version, device.osVersion);
  assert.equal(typeof device.osVersion, 'string');
  assert(device.osVersion.length > 0, 'osVersion is not empty');
  for (const field of ['model', 'manufacturer']) {
    const value = device[field];
    assert(value === null || (typeof value === 'string' && value.length > 0), field + ' is a name or null: ' + value);
  }
  assert(/^[a-z0-9_]+$/.test(device.arch), 'arch looks like uname -m: ' + device.arch);
  assert(/^[a-z]{2,3}$/.test(device.language), 'language: ' + device.language);
  assert(device.region === null || /^[A-Z0-9]{2,3}$/.test(device.region), 'region: ' + device.region);
  assert(uuid.test(device.deviceId), 'deviceId is a UUID v4: ' + device.deviceId);
});

test('deviceId is stable within the data dir', async () => {
  const a = await nbridge.app.deviceInfo();
  const b = await nbridge.app.deviceInfo();
  assert.equal(a.deviceId, b.deviceId);
});

test('exit with a code outside 0...255 is invalid_parameter naming "code"', async () => {
  for (const code of [256, -1, 1.5, 'one']) {
    const error = await rejection(nbridge.app.exit({ code }));
    assert.equal(error.code, 'invalid_parameter');
    assert(error.message.startsWith('app.exit: "code"'), error.message);
  }
});

test('an unknown action is invalid_action_name', async () => {
  const error = await rejection(nbridge.callToNative('app', 'noSuchAction', {}));
  assert.equal(error.code, 'invalid_action_name');
});

test('openBrowser takes only http(s) URLs: any other scheme is invalid_parameter naming "url"', async () => {
  for (
    const url of ['mailto:a@example.com', 'file:///etc/passwd', 'javascript:alert(1)', 'nbridge://x/', 'no scheme']
  ) {
    const error = await rejection(nbridge.app.openBrowser({ url }));
    assert.equal(error.code, 'invalid_parameter', url);
    assert(error.message.startsWith('app.openBrowser: "url"'), error.message);
  }
});

test('goSettings with an unknown type is invalid_parameter naming "type"', async () => {
  for (const type of ['wifi', 3, '']) {
    const error = await rejection(nbridge.app.goSettings({ type }));
    assert.equal(error.code, 'invalid_parameter', String(type));
    assert(error.message.startsWith('app.goSettings: "type"'), error.message);
  }
});

test('goSettings and share do not touch the desktop in a headless test: unavailable', async () => {
  for (const call of [nbridge.app.goSettings({ type: 'push' }), nbridge.app.share({ text: 'hi' })]) {
    const error = await rejection(call);
    assert.equal(error.code, 'unavailable');
    assert(error.message.includes('headless'), error.message);
  }
});

test('share needs its text as a string, and url/title as strings when given', async () => {
  for (
    const [options, field] of [[{}, 'text'], [{ text: 3 }, 'text'], [{ text: 'a', url: 1 }, 'url'], [
      { text: 'a', title: {} },
      'title',
    ]]
  ) {
    const error = await rejection(nbridge.app.share(options));
    assert.equal(error.code, 'invalid_parameter', JSON.stringify(options));
    assert(error.message.startsWith(`app.share: "${field}"`), error.message);
  }
});

test('screenshot needs the window: unavailable headless', { page: false, reason: "asserts the headless answer: a page has the window" }, async () => {
  const error = await rejection(nbridge.app.screenshot());
  assert.equal(error.code, 'unavailable');
  assert(error.message.includes('window'), error.message);
});

test('openWindow and closeWindow need the window: unavailable headless', { page: false, reason: "asserts the headless answer: a page has the window" }, async () => {
  const opened = await rejection(nbridge.app.openWindow({ url: 'https://example.com/' }));
  assert.equal(opened.code, 'unavailable');
  assert(opened.message.includes('window'), opened.message);
  const closed = await rejection(nbridge.app.closeWindow({ id: 'window-1' }));
  assert.equal(closed.code, 'unavailable');
});

test('openWindow names a missing url', async () => {
  const error = await rejection(nbridge.app.openWindow({ title: 'no url' }));
  assert.equal(error.code, 'invalid_parameter');
  assert(error.message.includes('url'), error.message);
});

test('openWindow holds url and title to their limits', async () => {
  const long = await rejection(nbridge.app.openWindow({ url: 'https://example.com/' + 'a'.repeat(40000) }));
  assert.equal(long.code, 'invalid_parameter');
  assert(long.message.includes('url') && long.message.includes('32768'), long.message);
  const title = await rejection(nbridge.app.openWindow({ url: 'https://example.com/', title: 't'.repeat(2000) }));
  assert.equal(title.code, 'invalid_parameter');
  assert(title.message.includes('title') && title.message.includes('1024'), title.message);
  const control = await rejection(nbridge.app.openWindow({ url: 'https://example.com/', title: 'a\u0000b' }));
  assert.equal(control.code, 'invalid_parameter');
  assert(control.message.includes('title'), control.message);
});

test('clearCache resolves with what it cleared', { page: false, reason: "asserts the headless answer: the window clears WebKit's caches too" }, async () => {
  const result = await nbridge.app.clearCache();
  assert(Array.isArray(result.cleared), JSON.stringify(result));
  assert(result.cleared.every((kind) => kind === 'moduleCache'), JSON.stringify(result));
});
