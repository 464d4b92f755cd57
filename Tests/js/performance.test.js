// performance and navigator headless.

test('now() is monotonic and timeOrigin + now() is the wall clock', async () => {
  const a = performance.now();
  await new Promise((resolve) => setTimeout(resolve, 5));
  const b = performance.now();
  assert(b > a, 'now() advances');
  assert(Math.abs(performance.timeOrigin + b - Date.now()) < 1000);
  assert.equal(performance.toJSON().timeOrigin, performance.timeOrigin);
});

test('mark, measure and the entry getters', () => {
  performance.mark('start', { startTime: 10, detail: { step: 1 } });
  performance.mark('end', { startTime: 35 });
  const m = performance.measure('work', 'start', 'end');
  assert.equal(m.duration, 25);
  assert.equal(m.startTime, 10);
  assert.deepEqual(performance.getEntriesByName('start')[0].detail, { step: 1 });
  assert.deepEqual(performance.getEntriesByType('mark').map((e) => e.name), ['start', 'end']);
  assert.equal(performance.measure('span', { start: 5, duration: 3 }).duration, 3);
  assert.throws(() => performance.measure('x', 'no such mark'), 'SyntaxError');
  performance.clearMarks('start');
  assert.deepEqual(performance.getEntriesByType('mark').map((e) => e.name), ['end']);
  performance.clearMeasures();
  assert.equal(performance.getEntriesByType('measure').length, 0);
});

test('navigator names nbridge and the machine', { page: false, reason: "a page has WebKit's navigator" }, () => {
  assert(/^nbridge\/\d+\.\d+\.\d+/.test(navigator.userAgent), navigator.userAgent);
  assert.equal(typeof navigator.language, 'string');
  assert.deepEqual(Array.from(navigator.languages), [navigator.language]);
  assert(navigator.hardwareConcurrency >= 1);
  assert.equal(navigator.onLine, true);
});
