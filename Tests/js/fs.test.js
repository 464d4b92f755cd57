// nbridge.fs under `nbridge test`: every action on a tree in the app's data folder (a fresh
// scratch folder for this file), the scope's refusals, bad input, and a recorded pick.

const fs = nbridge.fs;

async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to reject, but it resolved');
}

async function rejects(promise, code, pattern) {
  const error = await rejection(promise);
  assert.equal(error.code, code, error.message);
  if (pattern) assert.ok(pattern.test(error.message), error.message);
  return error;
}

let root;
test('paths: the app folders exist and are empty to start with', async () => {
  const paths = await fs.paths();
  assert.deepEqual(Object.keys(paths), ['data', 'cache', 'config']);
  assert.ok(paths.data.endsWith('/files'), paths.data);
  for (const folder of Object.values(paths)) {
    assert.equal((await fs.stat({ path: folder })).kind, 'folder');
  }
  root = paths.data + '/tree';
  await fs.mkdir({ path: root });
  assert.deepEqual(await fs.readDir({ path: root }), []);
});

test('text: write, read back, replace, append', async () => {
  const file = root + '/notes.txt';
  assert.equal(await fs.exists({ path: file }), false);
  await fs.writeTextFile({ path: file, contents: 'héllo ✓ 😀\n' });
  assert.equal(await fs.readTextFile({ path: file }), 'héllo ✓ 😀\n');
  await fs.writeTextFile({ path: file, contents: 'second' });
  assert.equal(await fs.readTextFile({ path: file }), 'second');
  await fs.appendFile({ path: file, contents: ' and third' });
  assert.equal(await fs.readTextFile({ path: file }), 'second and third');
  const info = await fs.stat({ path: file });
  assert.equal(info.kind, 'file');
  assert.equal(info.size, 16);
  assert.ok(Math.abs(info.modified - Date.now()) < 60000, 'modified is a recent Unix time in ms: ' + info.modified);
  assert.equal(await fs.exists({ path: file }), true);
  // No temporary file is left beside it.
  assert.deepEqual(await fs.readDir({ path: root }), [{ name: 'notes.txt', kind: 'file' }]);
});

test('bytes: writeFile takes a Uint8Array, ArrayBuffer or DataView; readFile answers a Uint8Array', async () => {
  const file = root + '/data.bin';
  const bytes = new Uint8Array(300);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7) & 255;
  await fs.writeFile({ path: file, data: bytes });
  const back = await fs.readFile({ path: file });
  assert.ok(back instanceof Uint8Array, 'a Uint8Array: ' + Object.prototype.toString.call(back));
  assert.deepEqual(Array.from(back), Array.from(bytes));
  await fs.writeFile({ path: file, data: bytes.buffer.slice(0, 5) });
  assert.deepEqual(Array.from(await fs.readFile({ path: file })), [0, 7, 14, 21, 28]);
  await fs.writeFile({ path: file, data: new DataView(bytes.buffer, 1, 2) });
  assert.deepEqual(Array.from(await fs.readFile({ path: file })), [7, 14]);
  await fs.appendFile({ path: file, data: new Uint8Array([0, 255]) });
  assert.deepEqual(Array.from(await fs.readFile({ path: file })), [7, 14, 0, 255]);
  await fs.writeFile({ path: file, data: new Uint8Array(0) });
  assert.equal((await fs.readFile({ path: file })).length, 0);
  await rejects(fs.writeFile({ path: file, data: 'not base64!' }), 'invalid_parameter', /"data"/);
  // callToNative takes and answers bytes as the method does.
  await nbridge.callToNative('fs', 'writeFile', { path: file, data: new Uint8Array([9, 8]) });
  const viaName = await nbridge.callToNative('fs', 'readFile', { path: file });
  assert.ok(viaName instanceof Uint8Array, 'callToNative answers a Uint8Array');
  assert.deepEqual(Array.from(viaName), [9, 8]);
});

test('folders: mkdir (recursive), readDir, rename, copyFile, remove (recursive)', async () => {
  await fs.mkdir({ path: root + '/a/b/c', recursive: true });
  await fs.mkdir({ path: root + '/a/b/c', recursive: true });
  await rejects(fs.mkdir({ path: root + '/a' }), 'invalid_parameter', /already exists/);
  await rejects(fs.mkdir({ path: root + '/x/y' }), 'not_found');
  await fs.writeTextFile({ path: root + '/a/b/one.txt', contents: '1' });
  await fs.copyFile({ from: root + '/a/b/one.txt', to: root + '/a/two.txt' });
  assert.equal(await fs.readTextFile({ path: root + '/a/two.txt' }), '1');
  await fs.rename({ from: root + '/a/two.txt', to: root + '/a/b/c/three.txt' });
  assert.equal(await fs.exists({ path: root + '/a/two.txt' }), false);
  assert.deepEqual(await fs.readDir({ path: root + '/a/b' }), [
    { name: 'c', kind: 'folder' },
    { name: 'one.txt', kind: 'file' },
  ]);
  await rejects(fs.remove({ path: root + '/a' }), 'invalid_parameter', /not empty/);
  await fs.remove({ path: root + '/a/b/one.txt' });
  assert.equal(await fs.exists({ path: root + '/a/b/one.txt' }), false);
  await fs.remove({ path: root + '/a', recursive: true });
  assert.equal(await fs.exists({ path: root + '/a' }), false);
  await rejects(fs.remove({ path: root + '/a' }), 'not_found');
  await rejects(fs.rename({ from: root + '/missing', to: root + '/other' }), 'not_found');
});

test('outside the scope: permission_denied naming the path, for every action', async () => {
  const outside = '/etc/hostname';
  const named = /"\/etc\/hostname" is outside the app's file scope/;
  await rejects(fs.readTextFile({ path: outside }), 'permission_denied', named);
  await rejects(fs.readFile({ path: outside }), 'permission_denied', named);
  await rejects(fs.exists({ path: outside }), 'permission_denied', named);
  await rejects(fs.stat({ path: outside }), 'permission_denied', named);
  await rejects(fs.readDir({ path: '/etc' }), 'permission_denied');
  await rejects(fs.writeTextFile({ path: outside, contents: 'x' }), 'permission_denied', named);
  await rejects(fs.copyFile({ from: outside, to: root + '/copy' }), 'permission_denied', named);
  await rejects(fs.copyFile({ from: root + '/missing', to: outside }), 'permission_denied', named);
  await rejects(fs.rename({ from: root, to: '/tmp/nbridge-fs-escape' }), 'permission_denied');
  await rejects(fs.mkdir({ path: '/tmp/nbridge-fs-escape/a', recursive: true }), 'permission_denied');
  await rejects(fs.remove({ path: '/tmp' }), 'permission_denied');
  // `..` out of the data folder is outside, even through a folder that does not exist.
  await rejects(fs.readTextFile({ path: root + '/../../../../../../../etc/hostname' }), 'permission_denied');
  await rejects(fs.exists({ path: root + '/nope/../../../../../../../../etc/x' }), 'permission_denied');
  assert.equal(await fs.exists({ path: root + '/nope/deeper' }), false);
});

test('one file spelled many ways: doubled slashes, `.` and `..` in the folder part', async () => {
  await fs.mkdir({ path: root + '/spelled/inner', recursive: true });
  await fs.writeTextFile({ path: root + '/spelled/inner/f.txt', contents: 'same' });
  for (
    const spelling of [
      root + '//spelled///inner/f.txt',
      root + '/./spelled/./inner/./f.txt',
      root + '/spelled/inner/../inner/f.txt',
      root + '/spelled/../spelled/inner/f.txt',
    ]
  ) {
    assert.equal(await fs.readTextFile({ path: spelling }), 'same', spelling);
    assert.equal((await fs.readFile({ path: spelling })).length, 4, spelling);
  }
  // A folder path ending in `.`, `..` or a slash names the folder itself.
  assert.deepEqual(await fs.readDir({ path: root + '/spelled/inner/.' }), [{ name: 'f.txt', kind: 'file' }]);
  await rejects(fs.readDir({ path: root + '/spelled/inner/f.txt/..' }), 'invalid_parameter', /a file where a folder/);
  assert.deepEqual(await fs.readDir({ path: root + '/spelled/inner/..' }), [{ name: 'inner', kind: 'folder' }]);
  assert.deepEqual(await fs.readDir({ path: root + '/spelled/' }), [{ name: 'inner', kind: 'folder' }]);
  // A name of three dots is a plain name, not a way up.
  await fs.writeTextFile({ path: root + '/spelled/...', contents: 'dots' });
  assert.equal(await fs.readTextFile({ path: root + '/spelled/inner/../...' }), 'dots');
  // Through `..` out of the scope, however it is spelled, is still refused.
  await rejects(
    fs.readFile({ path: root + '/spelled//inner/./../../../../../../../../../etc/hostname' }),
    'permission_denied',
  );
  await fs.remove({ path: root + '/spelled', recursive: true });
});

test('bad input: coded errors naming the field, and the runtime keeps answering', async () => {
  await rejects(fs.readTextFile({ path: root + '/a\u0000b' }), 'invalid_parameter', /"path" must not contain NUL/);
  await rejects(
    fs.readTextFile({ path: '/' + 'a'.repeat(1 << 20) }),
    'invalid_parameter',
    /"path" must be at most 4095 bytes/,
  );
  await rejects(fs.readTextFile({ path: 'relative.txt' }), 'invalid_parameter', /"path" must be an absolute path/);
  await rejects(fs.readTextFile({ path: root + '/' + 'n'.repeat(300) }), 'invalid_parameter', /longer than 255/);
  await rejects(fs.readTextFile({ path: 42 }), 'invalid_parameter', /"path"/);
  await rejects(fs.readTextFile({}), 'invalid_parameter', /"path"/);
  await rejects(fs.readTextFile({ path: root }), 'invalid_parameter', /names a folder/);
  await rejects(fs.writeTextFile({ path: root, contents: 'x' }), 'invalid_parameter', /names a folder/);
  await rejects(fs.appendFile({ path: root, contents: 'x' }), 'invalid_parameter', /folder/);
  await rejects(fs.readDir({ path: root + '/missing' }), 'not_found');
  await fs.writeTextFile({ path: root + '/file', contents: 'x' });
  await rejects(fs.readDir({ path: root + '/file' }), 'invalid_parameter', /a file where a folder is expected/);
  await rejects(fs.writeTextFile({ path: root + '/file/inner', contents: 'x' }), 'invalid_parameter');
  await rejects(fs.appendFile({ path: root + '/file' }), 'invalid_parameter', /"contents" or "data"/);
  await fs.writeFile({ path: root + '/latin1', data: new Uint8Array([0x68, 0xe9, 0xff]) });
  await rejects(fs.readTextFile({ path: root + '/latin1' }), 'invalid_parameter', /not UTF-8 text/);
  await rejects(fs.watch({ path: root }), 'invalid_parameter', /"retainCallback"/);
  assert.equal(await fs.readTextFile({ path: root + '/file' }), 'x');
});

test('watch: a change in the folder reaches retainCallback; unwatch resolves it', async () => {
  const seen = [];
  let notify;
  const arrived = new Promise((resolve) => notify = resolve);
  const ended = fs.watch({
    path: root,
    retainCallback: (change) => {
      seen.push(change);
      if (change.path === root + '/watched.txt' && change.kind === 'create') notify();
    },
  });
  await fs.writeTextFile({ path: root + '/watched.txt', contents: 'new' });
  await arrived;
  assert.deepEqual(await fs.unwatch({ path: root }), { count: 1 });
  assert.equal(await ended, null);
  assert.deepEqual(await fs.unwatch({}), { count: 0 });
});

test('a pick: outside until simulatePick records it, readable then, gone after forget', async () => {
  const picked = '/etc/hostname';
  await rejects(fs.readTextFile({ path: picked }), 'permission_denied');
  await fs.simulatePick({ path: picked });
  assert.equal(typeof await fs.readTextFile({ path: picked }), 'string');
  await rejects(fs.readTextFile({ path: '/etc/passwd' }), 'permission_denied');
  assert.deepEqual(await fs.forget({ path: picked }), { count: 1 });
  await rejects(fs.readTextFile({ path: picked }), 'permission_denied');
  await fs.simulatePick({ path: '/etc', folder: true });
  assert.equal(await fs.exists({ path: '/etc/passwd' }), true);
  assert.deepEqual(await fs.forget({}), { count: 1 });
  await rejects(fs.exists({ path: '/etc/passwd' }), 'permission_denied');
});

test('a path picked in dialog.open joins the scope; a folder picked covers what is in it', async () => {
  await rejects(fs.exists({ path: '/etc/hostname' }), 'permission_denied');
  await nbridge.dialog.simulate({ answers: ['/etc/hostname', null] });
  assert.equal(await nbridge.dialog.open(), '/etc/hostname');
  assert.equal(await fs.exists({ path: '/etc/hostname' }), true);
  assert.equal(await nbridge.dialog.save(), null);
  await rejects(fs.exists({ path: '/etc/passwd' }), 'permission_denied');
  await nbridge.dialog.simulate({ answers: ['/etc'] });
  assert.equal(await nbridge.dialog.open({ directory: true }), '/etc');
  assert.equal(await fs.exists({ path: '/etc/passwd' }), true);
  assert.deepEqual(await fs.forget({}), { count: 2 });
});
