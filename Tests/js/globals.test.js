// The globals nbridge adds to JavaScriptCore's core, as a script sees them.

// Headless only: in a page the timers are WebKit's, which aligns those of a page it throttles
// and fires the aligned ones in the order they were set ('b' first; seen on loaded CI machines
// even after the page had become visible).
test('timers fire by deadline, then insertion order', {
  page: false,
  reason: "asserts the runtime's own timer queue: a page's timers are WebKit's, aligned when it throttles the page",
}, async () => {
  const log = [];
  await new Promise((resolve) => {
    setTimeout(() => log.push('b'), 10);
    setTimeout(() => log.push('a'), 0);
    setTimeout(() => log.push('a2'), 0);
    setTimeout(resolve, 30);
  });
  assert.deepEqual(log, ['a', 'a2', 'b']);
});

test('microtasks run before the next timer', async () => {
  const log = [];
  await new Promise((resolve) => {
    setTimeout(() => { log.push('timer'); resolve(); }, 0);
    queueMicrotask(() => log.push('micro'));
  });
  assert.deepEqual(log, ['micro', 'timer']);
});

test('setInterval repeats until cleared', async () => {
  let n = 0;
  await new Promise((resolve) => {
    const id = setInterval(() => { if (++n === 3) { clearInterval(id); resolve(); } }, 1);
  });
  assert.equal(n, 3);
});

test('atob and btoa round-trip Latin-1', () => {
  assert.equal(btoa('nbridge!'), 'bmJyaWRnZSE=');
  assert.equal(atob('bmJyaWRnZSE='), 'nbridge!');
  assert.throws(() => btoa('☃'), 'InvalidCharacterError');
});

test('atob drops padding only from whole quartets and skips ASCII whitespace', () => {
  assert.equal(atob(' YW Jj\nZA== '), 'abcd');
  assert.equal(atob('YWI'), 'ab');
  for (const bad of ['=', '==', 'YW=', 'YWJ==', 'YWJjZA=', 'YWJjZA===', 'Y']) {
    assert.throws(() => atob(bad), 'InvalidCharacterError');
  }
});

test('TextEncoder and TextDecoder handle UTF-8 and emoji', () => {
  const bytes = new TextEncoder().encode('añ👋');
  assert.deepEqual(Array.from(bytes), [97, 195, 177, 240, 159, 145, 139]);
  assert.equal(new TextDecoder().decode(bytes), 'añ👋');
});

test('structuredClone copies deeply, keeps Dates and Maps, refuses functions', () => {
  const source = { when: new Date(1000), map: new Map([['k', { v: 1 }]]), list: [1, [2]] };
  source.self = source;
  const copy = structuredClone(source);
  assert(copy !== source && copy.self === copy);
  assert.equal(copy.when.getTime(), 1000);
  assert.equal(copy.map.get('k').v, 1);
  assert.throws(() => structuredClone({ f() {} }), 'DataCloneError');
});

test('window is the global object; alert, confirm and prompt answer headless', () => {
  assert(window === globalThis);
  assert.equal(confirm('sure?'), false);
  assert.equal(prompt('name?'), null);
});

test('nbridge.platform() and onBridgeReady()', async () => {
  assert.equal(nbridge.platform(), 'linux');
  assert.equal(await nbridge.onBridgeReady(), nbridge);
});

test('each service is one object among nbridge\'s keys, and a script may replace it before or after its first use', async () => {
  const keys = Object.keys(nbridge);
  for (const name of ['app', 'fs', 'storage', 'pasteboard']) assert(keys.includes(name), name + ' is listed');
  assert.equal(nbridge.storage, nbridge.storage);
  assert.equal(typeof nbridge.storage.get, 'function');
  // Replaced before anything read it: the script's object stays, and callToNative still reaches the service.
  const wrapper = { hasString: () => nbridge.callToNative('pasteboard', 'hasString') };
  nbridge.pasteboard = wrapper;
  assert.equal(nbridge.pasteboard, wrapper);
  assert.equal(typeof await nbridge.pasteboard.hasString(), 'boolean');
  assert(Object.keys(nbridge).includes('pasteboard'), 'a replaced service is still listed');
  // Replaced after its first use.
  const storage = nbridge.storage;
  nbridge.storage = wrapper;
  assert.equal(nbridge.storage, wrapper);
  nbridge.storage = storage;
  assert.equal(nbridge.storage, storage);
});

test('an unknown service or action rejects with its code', async () => {
  await assert.rejects(nbridge.nosuch.action(), 'invalid_service');
  await assert.rejects(nbridge.callToNative('nosuch', 'x'), 'invalid_service');
  await assert.rejects(nbridge.app.nosuch(), 'invalid_action_name');
});

test('require loads a CommonJS module relative to this file, once', { page: false, reason: "require() is headless only" }, () => {
  const a = require('./fixtures/counter.js');
  const b = require('./fixtures/counter');
  assert(a === b);
  assert.equal(a.next(), 1);
  assert.equal(b.next(), 2);
  assert.deepEqual(require('./fixtures/data.json'), { answer: 42 });
  assert.throws(() => require('./fixtures/missing'));
});

test('load evaluates a script in the global scope', { page: false, reason: "load() is headless only" }, () => {
  load('./fixtures/global.js');
  assert.equal(globalThis.loadedGreeting, 'hello from load');
});

// Last: it freezes nbridge. No test above reads nbridge.preference.
test('a frozen nbridge still gives each service, one object each time, and keeps it when assigned', async () => {
  Object.freeze(nbridge);
  const preference = nbridge.preference;
  assert.equal(typeof preference.get, 'function');
  assert.equal(nbridge.preference, preference);
  assert.equal(await nbridge.preference.get({ key: 'frozen', defaultValue: 'none' }), 'none');
  nbridge.preference = {};
  assert.equal(nbridge.preference, preference);
});
