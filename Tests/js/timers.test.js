// Timer delays converted as the HTML standard says (a WebIDL long: ToInt32, negative → 0).

test('delays of 2 ** 31 and 2 ** 32 wrap to 0 or below and fire at once', async () => {
  const fired = [];
  await new Promise((resolve) => {
    setTimeout(() => fired.push('2**31'), 2 ** 31);
    setTimeout(() => fired.push('2**32'), 2 ** 32);
    setTimeout(() => fired.push('negative'), -100);
    setTimeout(() => fired.push('NaN'), NaN);
    setTimeout(resolve, 50);
  });
  assert.deepEqual(fired, ['2**31', '2**32', 'negative', 'NaN']);
});

test('2 ** 32 + 20 waits about 20 ms, after a 0 ms timer', async () => {
  const fired = [];
  await new Promise((resolve) => {
    setTimeout(() => {
      fired.push('wrapped');
      resolve();
    }, 2 ** 32 + 20);
    setTimeout(() => fired.push('zero'), 0);
  });
  assert.deepEqual(fired, ['zero', 'wrapped']);
});

test('a delay converts with ToNumber first', async () => {
  const fired = [];
  await new Promise((resolve) => {
    setTimeout(() => fired.push('string 5'), '5');
    setTimeout(() => fired.push('object 1'), { valueOf: () => 1 });
    setTimeout(resolve, 40);
  });
  assert.deepEqual(fired.sort(), ['object 1', 'string 5']);
});

test('String(console) is [object console], as in a page', () => {
  assert.equal(String(console), '[object console]');
});

test('clearing a timer id no timer can have (1e300, -1e300, NaN, Infinity) is a no-op', async () => {
  let fired = 0;
  setTimeout(() => fired++, 1);
  for (const id of [1e300, -1e300, NaN, Infinity, -Infinity, 2 ** 63, 'x']) {
    clearTimeout(id);
    clearInterval(id);
  }
  await new Promise((resolve) => setTimeout(resolve, 5));
  assert.equal(fired, 1);
});
