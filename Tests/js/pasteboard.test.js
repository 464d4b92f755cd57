// nbridge.pasteboard under `nbridge test`: headless, so the general pasteboard is the
// shared store in this file's fresh shared dir.

const pb = nbridge.pasteboard;

async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to reject');
}

function nextChange() {
  return new Promise((resolve) => {
    const handle = pb.addListener('change', (change) => {
      handle.remove();
      resolve(change);
    });
  });
}

test('the general pasteboard starts empty', async () => {
  assert.equal(await pb.getString(), null);
  assert.equal(await pb.hasString(), false);
  assert.equal(await pb.changeCount(), 0);
});

test('setString, getString, hasString and clear on the general pasteboard', async () => {
  const before = await pb.changeCount();
  await pb.setString({ string: 'hello, clipboard ✓' });
  assert.equal(await pb.getString(), 'hello, clipboard ✓');
  assert.equal(await pb.getString({}), 'hello, clipboard ✓');
  assert.equal(await pb.hasString(), true);
  assert.equal(await pb.changeCount(), before + 1);
  await pb.clear();
  assert.equal(await pb.getString(), null);
  assert.equal(await pb.hasString(), false);
  assert.equal(await pb.changeCount(), before + 2);
});

test('an empty string is text, not an empty pasteboard', async () => {
  await pb.setString({ string: '' });
  assert.equal(await pb.getString(), '');
  assert.equal(await pb.hasString(), true);
});

test('named pasteboards: create, use, remove', async () => {
  const name = 'com.example.handoff';
  await pb.create({ name });
  assert.equal(await pb.getString({ name }), null);
  assert.equal(await pb.changeCount({ name }), 0);
  await pb.setString({ name, string: 'for the other app' });
  assert.equal(await pb.getString({ name }), 'for the other app');
  assert.equal(await pb.hasString({ name }), true);
  assert.equal(await pb.changeCount({ name }), 1);
  assert.equal(await pb.getString(), '', 'the general pasteboard is separate');
  await pb.create({ name });
  assert.equal(await pb.getString({ name }), 'for the other app', 'create keeps an existing pasteboard');
  await pb.clear({ name });
  assert.equal(await pb.hasString({ name }), false);
  assert.equal(await pb.changeCount({ name }), 2);
  await pb.remove({ name });
  await assert.rejects(pb.getString({ name }), 'not_found');
});

test('every action but create on a missing named pasteboard is not_found', async () => {
  const name = 'never-created';
  for (
    const call of [
      () => pb.getString({ name }),
      () => pb.setString({ name, string: 'x' }),
      () => pb.hasString({ name }),
      () => pb.clear({ name }),
      () => pb.changeCount({ name }),
      () => pb.remove({ name }),
    ]
  ) {
    await assert.rejects(call, 'not_found');
  }
  const error = await rejection(pb.getString({ name }));
  assert.equal(error.name, 'NBridgeError');
  assert(error.message.startsWith('pasteboard.getString: '), error.message);
  assert(error.message.includes('"never-created"'), error.message);
});

test('bad input is invalid_parameter naming the field', async () => {
  const cases = [
    [() => pb.setString({ string: 42 }), '"string"'],
    [() => pb.setString({}), '"string"'],
    [() => pb.setString({ string: 'x', name: '' }), '"name"'],
    [() => pb.getString({ name: 'a/b' }), '"name"'],
    [() => pb.getString({ name: 7 }), '"name"'],
    [() => pb.create({}), '"name"'],
    [() => pb.create({ name: '..' }), '"name"'],
    [() => pb.remove({ name: 'n'.repeat(200) }), '"name"'],
  ];
  for (const [call, field] of cases) {
    const error = await rejection(call());
    assert.equal(error.code, 'invalid_parameter');
    assert(error.message.includes(field), error.message);
  }
});

test('text over 16 MiB is refused and nothing changes', async () => {
  const before = await pb.changeCount();
  const error = await rejection(pb.setString({ string: 'x'.repeat(16 * 1024 * 1024 + 1) }));
  assert.equal(error.code, 'invalid_parameter');
  assert(error.message.includes('"string" must be at most 16777216 bytes of UTF-8'), error.message);
  assert.equal(await pb.changeCount(), before);
});

test('a change listener hears the general pasteboard', async () => {
  const heard = nextChange();
  await pb.setString({ string: 'watched' });
  const change = await heard;
  assert.deepEqual(change, { name: null, changeCount: await pb.changeCount() });
});

test('a change listener hears named pasteboards', async () => {
  await pb.create({ name: 'chat' });
  const heard = nextChange();
  await pb.setString({ name: 'chat', string: 'hi' });
  assert.deepEqual(await heard, { name: 'chat', changeCount: 1 });
  await pb.remove({ name: 'chat' });
});

test('a removed listener hears nothing more', async () => {
  let calls = 0;
  const handle = pb.addListener('change', () => calls++);
  handle.remove();
  // A listener that stays hears the change: by then the removed one would have heard it too.
  const heard = nextChange();
  await pb.setString({ string: 'unheard' });
  await heard;
  assert.equal(calls, 0);
});
