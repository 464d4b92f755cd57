// URL and URLSearchParams by the WHATWG URL Standard.

test('parsing resolves against a base, normalizes and serializes', () => {
  const url = new URL('../c/./d?q=1 2#f', 'https://User:Pw@EXAMPLE.com:443/a/b/');
  assert.equal(url.href, 'https://User:Pw@example.com/a/c/d?q=1%202#f');
  assert.equal(url.origin, 'https://example.com');
  assert.equal(url.port, '');
  assert.equal(url.pathname, '/a/c/d');
  assert.equal(JSON.stringify({ url }), '{"url":"https://User:Pw@example.com/a/c/d?q=1%202#f"}');
  assert.equal(String(new URL('file:///C|/x/../y')), 'file:///C:/y');
  assert.equal(new URL('mailto:someone@example.com').pathname, 'someone@example.com');
});

test('hosts: IPv4 forms, IPv6 compression, percent-decoding', () => {
  assert.equal(new URL('http://0x7f.1/').host, '127.0.0.1');
  assert.equal(new URL('http://3232235777/').hostname, '192.168.1.1');
  assert.equal(new URL('http://[0:0:0:0:0:ffff:c0a8:1]:8080/').host, '[::ffff:c0a8:1]:8080');
  assert.equal(new URL('http://ex%61mple.com/').hostname, 'example.com');
  assert.throws(() => new URL('http://1.2.3.256/'), 'TypeError');
  assert.throws(() => new URL('http://exa mple.com/'), 'TypeError');
});

test('IDNA hosts go to their ASCII form (UTS #46)', () => {
  assert.equal(new URL('https://bücher.de/').host, 'xn--bcher-kva.de');
  assert.equal(new URL('https://MÜNCHEN.de/').host, 'xn--mnchen-3ya.de');
  assert.equal(new URL('http://faß.de/').host, 'xn--fa-hia.de');
  assert.equal(new URL('http://example。com/').host, 'example.com');
  assert.equal(new URL('https://%e2%98%83/').host, 'xn--n3h');
  assert.equal(URL.canParse('https://a\u200Db.com/'), false);
});

test('canParse and parse do not throw', () => {
  assert.equal(URL.canParse('nope'), false);
  assert.equal(URL.canParse('/path', 'https://example.com'), true);
  assert.equal(URL.parse('nope'), null);
  assert.equal(URL.parse('x', 'https://a/b/').href, 'https://a/b/x');
});

test('setters follow the standard', () => {
  const url = new URL('https://example.com:8080/path?x=1#top');
  url.protocol = 'http';
  url.hostname = 'Example.org';
  url.port = '80';
  assert.equal(url.href, 'http://example.org/path?x=1#top');
  url.host = 'example.net:65536';
  assert.equal(url.host, 'example.net', 'an out-of-range port is ignored, the host still set');
  url.pathname = 'a b/c';
  url.search = '?q=ä';
  url.hash = 'new';
  url.username = 'us:er';
  url.password = 'p@ss';
  assert.equal(url.href, 'http://us%3Aer:p%40ss@example.net/a%20b/c?q=%C3%A4#new');
  url.protocol = 'mailto';
  assert.equal(url.protocol, 'http:', 'a special scheme does not become a non-special one');
  assert.throws(() => {
    url.href = 'not a url';
  }, 'TypeError');
});

test('searchParams stay in sync with the URL', () => {
  const url = new URL('https://example.com/?a=1&b=2&a=3');
  const params = url.searchParams;
  assert.deepEqual(params.getAll('a'), ['1', '3']);
  params.append('c', 'x y');
  assert.equal(url.search, '?a=1&b=2&a=3&c=x+y');
  params.delete('a');
  assert.equal(url.href, 'https://example.com/?b=2&c=x+y');
  url.search = '?z=9';
  assert.equal(params.get('z'), '9');
  assert.equal(params.size, 1);
  params.delete('z');
  assert.equal(url.href, 'https://example.com/');
});

test('URLSearchParams from strings, records and pairs; sort is stable; iteration is live', () => {
  assert.equal(new URLSearchParams('?a=b%20c&d=e+f').get('a'), 'b c');
  assert.equal(new URLSearchParams('%EF%BB%BFx=1').get('\ufeffx'), '1', 'a decoded BOM is kept');
  assert.equal(new URLSearchParams({ x: '1', y: 2 }).toString(), 'x=1&y=2');
  const params = new URLSearchParams([['z', '1'], ['a', '2'], ['z', '0']]);
  params.sort();
  assert.equal(params.toString(), 'a=2&z=1&z=0');
  assert.deepEqual([...params.keys()], ['a', 'z', 'z']);
  assert.equal(params.has('z', '0'), true);
  params.set('z', 'only');
  assert.deepEqual([...params], [['a', '2'], ['z', 'only']]);
  assert.throws(() => new URLSearchParams([['only one']]), 'TypeError');
  assert.equal(new URLSearchParams({ '€': '~!*()' }).toString(), '%E2%82%AC=%7E%21*%28%29');
});

test('the common shapes, read without the state machine, come out as the standard says', () => {
  const cases = [
    ['HTTPS://Api.GitHub.com:443/v1/./users/../items/%2e%2E/x?q=a&l=über#frag`', 'https://api.github.com/v1/x?q=a&l=%C3%BCber#frag%60'],
    ['http://user:pa:ss@example.com/', 'http://user:pa%3Ass@example.com/'],
    ['ws://ü:%@Host:80/', 'ws://%C3%BC:%@host/'],
    ['http://@h/', 'http://h/'],
    ['ftp://127.0.0.1:21/a/..', 'ftp://127.0.0.1/'],
    ['http://0x7f.1/', 'http://127.0.0.1/'],
    ['https://bücher.de/über/^{x}`"<>|~', 'https://xn--bcher-kva.de/%C3%BCber/%5E%7Bx%7D%60%22%3C%3E|~'],
    ['https://example.com/a/.', 'https://example.com/a/'],
    ['http://h:00080/', 'http://h/'],
  ];
  for (const [input, href] of cases) assert.equal(new URL(input).href, href, input);
  assert.equal(URL.canParse('http://1.2.3.256/'), false);
  assert.equal(URL.canParse('http://h:65536/'), false);
});

test('relative paths against several bases in turn (each base parsed once and kept)', () => {
  const a = 'https://a.example/b/c/d', b = 'https://u:p@b.example:8443/x/y?q#f';
  for (let round = 0; round < 3; round++) {
    assert.equal(new URL('../up/./x?y#z', a).href, 'https://a.example/b/up/x?y#z');
    assert.equal(new URL('/abs/../p', b).href, 'https://u:p@b.example:8443/p');
    assert.equal(new URL('..', a).href, 'https://a.example/b/');
    assert.equal(new URL('sub/%2E./z', 'ws://h/a/b').href, 'ws://h/a/z');
    assert.equal(new URL('x', b).href, 'https://u:p@b.example:8443/x/x');
    // A URL made from a base is its own: changing it leaves the kept base as it was.
    const child = new URL('x', a);
    child.pathname = '/changed';
    child.username = 'me';
    assert.equal(new URL('x', a).href, 'https://a.example/b/c/x');
  }
});
