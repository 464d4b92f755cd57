// TextDecoder by the Encoding Standard (UTF-8 and UTF-16), TextEncoder.encodeInto.

const bytes = (...list) => new Uint8Array(list);

test('a character split across stream chunks decodes once; decode() flushes', () => {
  const decoder = new TextDecoder();
  let text = decoder.decode(bytes(0x41, 0xe2), { stream: true });
  text += decoder.decode(bytes(0x82), { stream: true });
  text += decoder.decode(bytes(0xac));
  assert.equal(text, 'A€');
  assert.equal(decoder.decode(bytes(0xe2, 0x82), { stream: true }), '');
  assert.equal(decoder.decode(), '\ufffd');
});

test('a truncated sequence is one U+FFFD, a bad byte one each (maximal subparts)', () => {
  const decoder = new TextDecoder();
  assert.equal(decoder.decode(bytes(0xf0, 0x90, 0x80, 0x41)), '\ufffdA');
  assert.equal(decoder.decode(bytes(0xc0, 0x80)), '\ufffd\ufffd');
  assert.equal(decoder.decode(bytes(0xed, 0xa0, 0x80)), '\ufffd\ufffd\ufffd');
});

test('the BOM is stripped unless ignoreBOM; only at the start of a stream', () => {
  assert.equal(new TextDecoder().decode(bytes(0xef, 0xbb, 0xbf, 0x42)), 'B');
  assert.equal(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes(0xef, 0xbb, 0xbf, 0x42)), '\ufeffB');
  const decoder = new TextDecoder();
  assert.equal(decoder.decode(bytes(0x41), { stream: true }) + decoder.decode(bytes(0xef, 0xbb, 0xbf)), 'A\ufeff');
});

test('fatal throws a TypeError on invalid input', () => {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  assert.equal(decoder.fatal, true);
  assert.throws(() => decoder.decode(bytes(0xff)), 'TypeError');
  assert.equal(decoder.decode(bytes(0x68, 0x69)), 'hi');
});

test('labels: whitespace trimmed, case folded, every UTF-8 alias; others are RangeErrors', () => {
  for (const label of [' utf-8\n', 'UTF8', 'unicode-1-1-utf-8', 'unicode11utf8', 'unicode20utf8', 'x-unicode20utf8']) {
    assert.equal(new TextDecoder(label).encoding, 'utf-8');
  }
  assert.equal(new TextDecoder('utf-16').encoding, 'utf-16le');
  assert.equal(new TextDecoder('unicodeFFFE').encoding, 'utf-16be');
  assert.throws(() => new TextDecoder('utf-9'), 'RangeError');
  assert.throws(() => new TextDecoder('replacement'), 'RangeError');
});

test('UTF-16LE and BE decode pairs and report lone surrogates', () => {
  assert.equal(new TextDecoder('utf-16le').decode(bytes(0xff, 0xfe, 0x41, 0x00, 0x3d, 0xd8, 0x4b, 0xdc)), 'A👋');
  assert.equal(new TextDecoder('utf-16be').decode(bytes(0x00, 0x41, 0xd8, 0x3d)), 'A\ufffd');
  const decoder = new TextDecoder('utf-16le');
  assert.equal(decoder.decode(bytes(0x41), { stream: true }) + decoder.decode(bytes(0x00)), 'A');
});

test('decode accepts ArrayBuffer, DataView and typed arrays', () => {
  const data = new TextEncoder().encode('héllo');
  assert.equal(new TextDecoder().decode(data.buffer), 'héllo');
  assert.equal(new TextDecoder().decode(new DataView(data.buffer, 1)), 'éllo');
  assert.throws(() => new TextDecoder().decode('text'), 'TypeError');
});

test('encodeInto writes whole characters only', () => {
  const out = new Uint8Array(4);
  assert.deepEqual(new TextEncoder().encodeInto('a€b', out), { read: 2, written: 4 });
  assert.deepEqual(new TextEncoder().encodeInto('👋', new Uint8Array(3)), { read: 0, written: 0 });
});

test('SharedArrayBuffer exists; TextDecoder reads views of one and encodeInto writes into one', { page: false, reason: "WebKit gives SharedArrayBuffer to cross-origin isolated pages only" }, () => {
  assert.equal(typeof SharedArrayBuffer, 'function');
  const shared = new SharedArrayBuffer(8);
  const view = new Uint8Array(shared);
  assert.deepEqual(new TextEncoder().encodeInto('hé!', view), { read: 3, written: 4 });
  assert.equal(new TextDecoder().decode(view.subarray(0, 4)), 'hé!');
  assert.equal(new TextDecoder().decode(new DataView(shared, 1, 3)), 'é!');
  assert.equal(new TextDecoder().decode(shared).slice(0, 3), 'hé!');
});

test('TextDecoder knows the legacy encodings by every label and decodes them (glibc iconv)', () => {
  const cases = [
    [' Latin1\n', 'windows-1252', [0x41, 0x80, 0x81, 0xe9], 'A\u20ac\u0081\u00e9'],
    ['SJIS', 'shift_jis', [0x82, 0xa0, 0x93, 0xfa, 0x96, 0x7b], '\u3042\u65e5\u672c'],
    ['big5-hkscs', 'big5', [0xa4, 0xa4, 0xa4, 0xe5], '\u4e2d\u6587'],
    ['korean', 'euc-kr', [0xc7, 0xd1, 0xb1, 0xdb], '\ud55c\uae00'],
    ['gb2312', 'gbk', [0xc4, 0xe3, 0xba, 0xc3], '\u4f60\u597d'],
    ['koi8_r', 'koi8-r', [0xf0, 0xd2, 0xc9], '\u041f\u0440\u0438'],
    ['iso-8859-8-i', 'iso-8859-8-i', [0xe0], '\u05d0'],
    ['csiso2022jp', 'iso-2022-jp', [0x1b, 0x24, 0x42, 0x24, 0x22, 0x1b, 0x28, 0x42, 0x41], '\u3042A'],
    ['x-user-defined', 'x-user-defined', [0x41, 0x80, 0xff], 'A\uf780\uf7ff'],
    ['x-mac-ukrainian', 'x-mac-cyrillic', [0x80], '\u0410'],
  ];
  for (const [label, name, bytes, text] of cases) {
    const decoder = new TextDecoder(label);
    assert.equal(decoder.encoding, name, label);
    assert.equal(decoder.decode(new Uint8Array(bytes)), text, label);
  }
  // Single-byte encodings byte for byte as the standard's indexes have them, where glibc differs too.
  const single = (label, bytes) => new TextDecoder(label).decode(new Uint8Array(bytes));
  assert.equal(single('windows-1255', [0xca, 0xe0]), '\u05ba\u05d0');
  assert.equal(single('windows-1258', [0xc3, 0x41]), '\u0102A');
  assert.equal(single('macintosh', [0xc6, 0xf0]), '\u2206\uf8ff');
  assert.equal(single('koi8-u', [0xae, 0xbe]), '\u045e\u040e');
  assert.equal(single('x-mac-cyrillic', [0xff]), '\u20ac');
  assert.throws(() => new TextDecoder('iso-8859-3', { fatal: true }).decode(new Uint8Array([0xa5])), 'TypeError');
  assert.throws(() => new TextDecoder('iso-2022-kr'), 'RangeError');
  assert.throws(() => new TextDecoder('hz-gb-2312'), 'RangeError');
  assert.equal(new TextDecoder('windows-1253').decode(new Uint8Array([0xaa])), '\ufffd');
  assert.equal(new TextDecoder('shift_jis').decode(new Uint8Array([0x82])), '\ufffd');
  assert.throws(() => new TextDecoder('shift_jis', { fatal: true }).decode(new Uint8Array([0x82])), 'TypeError');
  // A character cut between two chunks of a stream waits for the rest.
  const stream = new TextDecoder('shift_jis');
  assert.equal(stream.decode(new Uint8Array([0x41, 0x82]), { stream: true }), 'A');
  assert.equal(stream.decode(new Uint8Array([0xa0, 0x42])), '\u3042B');
  // A lead byte followed by a byte that cannot trail it: one U+FFFD for both unless the second
  // is ASCII, which is decoded again (the Encoding Standard; WPT's textdecoder-eof).
  const bytes = (label, b) => new TextDecoder(label).decode(new Uint8Array(b));
  assert.equal(bytes('big5', [0x81, 0x81]), '\ufffd');
  assert.equal(bytes('big5', [0x81, 0x40]), '\ufffd@');
  assert.equal(bytes('big5', [0x87, 0x87, 0x40]), '\ufffd@');
  assert.equal(bytes('shift_jis', [0x81, 0xff, 0x41]), '\ufffdA');
  assert.equal(bytes('euc-kr', [0xb0, 0xff, 0xb0, 0xa1]), '\ufffd\uac00');
  assert.equal(bytes('gbk', [0x81, 0x7f]), '\ufffd\x7f');
});
