// A plain script reaches modules through import() and require().
test('import() from a script resolves against the script file', async () => {
  const ns = await import('./modules/values.mjs');
  assert.equal(ns.one, 1);
  assert.equal(typeof ns.default, 'function');
});

test('require() of an ES module returns its namespace (Node 22 rule)', { page: false, reason: "require() is headless only" }, () => {
  const ns = require('./modules/values.mjs');
  assert.equal(ns.two, 2);
  assert.equal(ns[Symbol.toStringTag], 'Module');
});

test('require() of a module that awaits at top level is refused', { page: false, reason: "require() is headless only" }, () => {
  const error = assert.throws(() => require('./modules/tla-a.mjs'));
  assert.equal(error.code, 'ERR_REQUIRE_ASYNC_MODULE');
});

test('a CommonJS file that throws while loading is not kept: each import and require runs it again', { page: false, reason: "require() and CommonJS are headless only" }, async () => {
  for (const n of [1, 2]) {
    const error = await import('./modules/throws.cjs').then(() => null, (e) => e);
    assert.equal(error instanceof Error && error.message, 'boom ' + n);
  }
  assert.throws(() => require('./modules/throws.cjs'));
  assert.equal(globalThis.throwsRuns, 3);
});

test('import() inside a CommonJS file or a load()ed script resolves against that file', { page: false, reason: "require() and load() are headless only" }, async () => {
  assert.equal((await require('./modules/dynamic.cjs')).one, 1);
  load('./modules/loaded-import.js');
  assert.equal((await globalThis.loadedImport).two, 2);
});

test("a failing module's own import() rejects before the import() of a module that imports it", { page: false, reason: "the headless loader's order of rejections" }, async () => {
  const { fail } = await import('./modules/order-setup.mjs');
  const seen = [];
  const high = import('./modules/order-high.mjs').catch(() => seen.push('high'));
  const low = import('./modules/order-low.mjs').catch(() => seen.push('low'));
  await new Promise((resolve) => setTimeout(resolve, 0));
  fail(new Error('gate failed'));
  await Promise.all([high, low]);
  assert.deepEqual(seen, ['low', 'high']);
});
