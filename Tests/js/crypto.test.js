// crypto: getRandomValues, randomUUID and subtle.digest known answers.

const hex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');

test('digest gives the FIPS 180 known answers for "abc" and the empty input', async () => {
  const abc = new TextEncoder().encode('abc');
  assert.equal(hex(await crypto.subtle.digest('SHA-1', abc)), 'a9993e364706816aba3e25717850c26c9cd0d89d');
  assert.equal(
    hex(await crypto.subtle.digest('SHA-256', abc)),
    'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
  );
  assert.equal(
    hex(await crypto.subtle.digest({ name: 'sha-384' }, abc.buffer)),
    'cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7',
  );
  assert.equal(
    hex(await crypto.subtle.digest('SHA-512', new Uint8Array(0))),
    'cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce' +
      '47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e',
  );
});

test('digest returns an ArrayBuffer and rejects unknown algorithms and bad data', async () => {
  const result = await crypto.subtle.digest('SHA-256', new Uint8Array([1]));
  assert(result instanceof ArrayBuffer && result.byteLength === 32);
  const unknown = await crypto.subtle.digest('MD5', new Uint8Array(0)).catch((e) => e);
  assert.equal(unknown.name, 'NotSupportedError');
  const bad = await crypto.subtle.digest('SHA-256', 'text').catch((e) => e);
  assert(bad instanceof TypeError);
});

test('getRandomValues fills integer arrays in place, refuses floats and more than 65536 bytes', () => {
  const a = new Uint8Array(4096);
  assert.equal(crypto.getRandomValues(a), a);
  assert(new Set(a).size > 100, 'the bytes look random');
  assert.throws(() => crypto.getRandomValues(new Float64Array(2)), 'TypeMismatchError');
  assert.throws(() => crypto.getRandomValues(new Uint8Array(65537)), 'QuotaExceededError');
});

test('getRandomValues over 65536 bytes throws a QuotaExceededError, as WPT getRandomValues.any.js checks', { page: false, reason: "WebKit has no QuotaExceededError global (the headless crypto has)" }, () => {
  for (const ctor of [Int8Array, Uint16Array, Int32Array, BigUint64Array, Uint8ClampedArray]) {
    let thrown;
    try {
      crypto.getRandomValues(new ctor(65536 / ctor.BYTES_PER_ELEMENT + 1));
    } catch (e) {
      thrown = e;
    }
    assert(thrown !== undefined, ctor.name + ': did not throw');
    assert.equal(thrown.constructor, QuotaExceededError, ctor.name);
    assert(thrown instanceof DOMException, ctor.name + ': a DOMException');
    assert.equal(thrown.name, 'QuotaExceededError');
    assert.equal(thrown.code, 22);
    assert('quota' in thrown && 'requested' in thrown, 'quota and requested are attributes');
    assert.equal(thrown.quota, null);
    assert.equal(thrown.requested, null);
  }
  assert.equal(crypto.getRandomValues(new Uint8Array(65536)).length, 65536);
});

test('randomUUID gives distinct version 4 UUIDs', () => {
  const seen = new Set();
  for (let i = 0; i < 100; i++) {
    const id = crypto.randomUUID();
    assert(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id), id);
    seen.add(id);
  }
  assert.equal(seen.size, 100);
});
