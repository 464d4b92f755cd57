// nbridge.log under `nbridge test`: every level, the seed's `warning`, and calls that never throw.
test('nbridge.log has every level and the seed\'s warning alias', () => {
  for (const name of ['debug', 'info', 'warn', 'warning', 'error']) {
    assert.equal(typeof nbridge.log[name], 'function', name);
  }
  assert.equal(nbridge.log.warning, nbridge.log.warn);
  assert(!Object.keys(nbridge).includes('log'), 'log is not a service');
});

test('a log call returns nothing and never throws', () => {
  const cyclic = { name: 'cycle' };
  cyclic.self = cyclic;
  const hostile = {
    get boom() {
      throw new Error('getter');
    },
  };
  const proxy = new Proxy({}, {
    ownKeys() {
      throw new Error('ownKeys');
    },
  });
  const values = [undefined, null, Symbol('s'), 10n, cyclic, hostile, proxy, '%s %d %o', () => 1, new Error('e')];
  for (const value of values) {
    assert.equal(nbridge.log.info(value), undefined);
    assert.equal(nbridge.log.error('with', value, 'inside'), undefined);
  }
  assert.equal(nbridge.log.debug(), undefined);
});

test('a log call leaves Error.stackTraceLimit as it was', () => {
  const before = Error.stackTraceLimit;
  nbridge.log.info('x');
  assert.equal(Error.stackTraceLimit, before);
  assert(new Error('deep').stack.length > 0);
});
