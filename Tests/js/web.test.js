// Blob, File, FormData, Headers, Request, Response, sessionStorage and fetch of the app's own
// files, as a script sees them (fetch over HTTP and localStorage: Tests/CLITests).

test('Blob joins strings, buffers, views and blobs, and reads back', async () => {
  const blob = new Blob(['añ', new Uint8Array([33]).buffer, new Uint16Array([0x4241]), new Blob(['!'])], {
    type: 'Text/Plain',
  });
  assert.equal(blob.size, 7);
  assert.equal(blob.type, 'text/plain');
  assert.equal(await blob.text(), 'añ!AB!');
  assert.deepEqual(Array.from(await blob.bytes()), [97, 195, 177, 33, 65, 66, 33]);
  assert.equal((await blob.arrayBuffer()).byteLength, 7);
  assert.equal(await blob.slice(3, -1).text(), '!AB');
  assert.equal(await blob.slice(-3).text(), 'AB!');
  assert.equal(blob.slice(0, 1, 'X/Y').type, 'x/y');
  assert.equal(new Blob([], { type: 'bad\u00e9' }).type, '');
  assert.equal(String(blob), '[object Blob]');
  assert.throws(() => new Blob('not a sequence'), 'TypeError');
  assert.equal(await new Blob(['a\r\nb'], { endings: 'native' }).text(), 'a\nb');
});

test('File has a name and lastModified and is a Blob', async () => {
  const file = new File(['data'], 'notes.txt', { type: 'text/plain', lastModified: 1234 });
  assert.equal(file.name, 'notes.txt');
  assert.equal(file.lastModified, 1234);
  assert.ok(file instanceof Blob);
  assert.equal(await file.text(), 'data');
  assert.ok(Math.abs(new File([], 'x').lastModified - Date.now()) < 60000);
  assert.throws(() => new File(['only bits']), 'TypeError');
});

test('FormData keeps entries in order and turns blobs into files', () => {
  const form = new FormData();
  form.append('a', '1');
  form.append('b', new Blob(['x']));
  form.append('a', 2);
  form.set('c', new Blob(['y']), 'y.txt');
  assert.deepEqual(form.getAll('a'), ['1', '2']);
  assert.equal(form.get('b').name, 'blob');
  assert.equal(form.get('c').name, 'y.txt');
  form.set('a', 'only');
  assert.deepEqual([...form.keys()], ['a', 'b', 'c']);
  form.delete('b');
  assert.equal(form.has('b'), false);
  assert.equal(form.get('missing'), null);
});

test('Headers validate, combine and iterate sorted', () => {
  const headers = new Headers([['B', '1'], ['a', ' 2 ']]);
  headers.append('b', '3');
  assert.equal(headers.get('b'), '1, 3');
  assert.equal(headers.get('A'), '2');
  assert.deepEqual([...headers], [['a', '2'], ['b', '1, 3']]);
  headers.set('B', '4');
  assert.deepEqual([...headers.keys()], ['a', 'b']);
  assert.equal(headers.get('b'), '4');
  assert.throws(() => headers.append('bad name', 'x'), 'TypeError');
  assert.throws(() => headers.append('x', 'line\nbreak'), 'TypeError');
  assert.throws(() => new Headers([['only one']]), 'TypeError');
  assert.deepEqual(new Headers({ 'Set-Cookie': 'a=1' }).getSetCookie(), ['a=1']);
});

test('Request carries method, headers and body; GET cannot have one', { page: false, reason: "the headless Request; a page has WebKit's own" }, async () => {
  const request = new Request('https://example.com/a#frag', { method: 'post', body: 'hi', headers: { 'X-A': '1' } });
  assert.equal(request.url, 'https://example.com/a');
  assert.equal(request.method, 'POST');
  assert.equal(request.headers.get('content-type'), 'text/plain;charset=UTF-8');
  const copy = request.clone();
  assert.equal(await request.text(), 'hi');
  assert.equal(request.bodyUsed, true);
  assert.equal(await copy.text(), 'hi');
  await assert.rejects(request.text());
  assert.throws(() => new Request('https://example.com/', { method: 'GET', body: 'x' }), 'TypeError');
  assert.throws(() => new Request('https://user:pw@example.com/'), 'TypeError');
  assert.throws(() => new Request('https://example.com/', { method: 'CONNECT' }), 'TypeError');
  assert.equal(new Request('https://example.com/', { headers: { Host: 'evil', 'X-Ok': '1' } }).headers.has('host'), false);
});

test('Response constructors, status checks and bodies', async () => {
  const response = new Response('body', { status: 201, statusText: 'Made', headers: { 'X-B': '2' } });
  assert.equal(response.status, 201);
  assert.equal(response.ok, true);
  assert.equal(response.statusText, 'Made');
  assert.equal(await response.clone().text(), 'body');
  assert.deepEqual(await Response.json({ a: [1] }).json(), { a: [1] });
  assert.equal(Response.json(1).headers.get('content-type'), 'application/json');
  const error = Response.error();
  assert.equal(error.type, 'error');
  assert.equal(error.status, 0);
  const redirect = Response.redirect('https://example.com/next', 301);
  assert.equal(redirect.headers.get('location'), 'https://example.com/next');
  assert.throws(() => Response.redirect('https://example.com/', 200), 'RangeError');
  assert.throws(() => new Response('x', { status: 204 }), 'TypeError');
  assert.throws(() => new Response(null, { status: 99 }), 'RangeError');
  assert.throws(() => error.headers.set('a', 'b'), 'TypeError');
  const blob = await new Response(new Blob(['abc'], { type: 'text/x' })).blob();
  assert.equal(blob.type, 'text/x');
  assert.equal(blob.size, 3);
  const form = await new Response('a=1&b=x+y', {
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  }).formData();
  assert.equal(form.get('b'), 'x y');
});

test('fetch reads the app files relative to the script folder', { page: false, reason: "the headless fetch of files (a page fetches from the app's origin)" }, async () => {
  const response = await fetch('fixtures/data.json');
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'application/json');
  assert.deepEqual(Object.keys(await response.json()).length > 0, true);
  assert.equal((await fetch('fixtures/none.json')).status, 404);
  const outside = await assert.rejects(fetch('file:///etc/hostname'));
  assert.ok(outside instanceof TypeError);
  assert.equal(outside.cause.code, 'outside_app_folder');
  const data = await fetch('data:text/plain;base64,aGk=');
  assert.equal(await data.text(), 'hi');
});

test('sessionStorage is a Storage reached through properties too', () => {
  sessionStorage.clear();
  sessionStorage.setItem('a', 1);
  sessionStorage.b = { toString: () => 'two' };
  assert.equal(sessionStorage.getItem('a'), '1');
  assert.equal(sessionStorage.b, 'two');
  assert.equal(sessionStorage.length, 2);
  assert.ok('a' in sessionStorage);
  assert.deepEqual(Object.keys(sessionStorage), ['a', 'b']);
  delete sessionStorage.a;
  assert.equal(sessionStorage.getItem('a'), null);
  sessionStorage.setItem('getItem', 'shadowed');
  assert.equal(typeof sessionStorage.getItem, 'function');
  assert.equal(sessionStorage.getItem('getItem'), 'shadowed');
  assert.ok(sessionStorage instanceof Storage);
  assert.throws(() => new Storage(), 'TypeError');
  const e = assert.throws(() => sessionStorage.setItem('big', 'x'.repeat(5 * 1024 * 1024 + 1)));
  assert.equal(e.name, 'QuotaExceededError');
  sessionStorage.clear();
  assert.equal(sessionStorage.length, 0);
});

test('buffers handed to JS are freed by the collector on any thread', async () => {
  // Tens of MiB of UTF-8 buffers made natively: the collector frees them, maybe off the loop
  // thread (a deallocator bound to the loop's actor stopped the process there).
  let total = 0;
  for (let i = 0; i < 3000; i++) {
    const blob = new Blob(['x'.repeat(16384) + i]);
    total += (await blob.bytes()).length;
  }
  assert.equal(total > 3000 * 16384, true);
});

test('a Request is a valid input to Request and fetch, keeping its headers and signal', { page: false, reason: "the headless fetch of files (a page fetches from the app's origin)" }, async () => {
  const controller = new AbortController();
  const first = new Request('fixtures/data.json', { headers: { 'X-A': '1' }, signal: controller.signal });
  const second = new Request(first);
  assert.equal(second.headers.get('x-a'), '1');
  assert.equal(second.url, first.url);
  assert.equal((await fetch(first)).status, 200);
  controller.abort('stop');
  assert.equal(second.signal.aborted, true);
  assert.equal(second.signal.reason, 'stop');
  assert.equal(await fetch(second).catch((e) => e), 'stop');
});

test('formData() of an urlencoded body parses as URLSearchParams does (bytes, then UTF-8 with U+FFFD)', async () => {
  const form = async (body) => [...await new Response(body, { headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }).formData()];
  assert.deepEqual(await form('a=b%C2&c=%FF%FE&d=%%2a&e=a+b'), [['a', 'b\uFFFD'], ['c', '\uFFFD\uFFFD'], ['d', '%*'], ['e', 'a b']]);
  assert.deepEqual(await form('\uFEFFtest=\uFEFF'), [['\uFEFFtest', '\uFEFF']]);
  assert.deepEqual(await form('%EF%BB%BFx=1&&y'), [['\uFEFFx', '1'], ['y', '']]);
});
