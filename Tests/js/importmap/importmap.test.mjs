// The manifest's import map: bare specifiers through "imports", per-folder overrides in "scopes".
import { h } from 'preact';
import { pad } from 'lib/pad.mjs';
import { h as scopedH } from './scoped/uses-preact.mjs';

test('a bare specifier maps through "imports"', () => {
  assert.equal(h, 'preact h');
});

test('a prefix ending in / maps the rest of the specifier', () => {
  assert.equal(pad('x'), '  x');
});

test('"scopes" override the map for modules under their folder', () => {
  assert.equal(scopedH, 'scoped preact h');
});

test('import.meta.resolve() and import() use the map too', async () => {
  assert(import.meta.resolve('preact').endsWith('/importmap/vendor/preact.mjs'));
  const ns = await import('lib/pad.mjs');
  assert.equal(ns.pad, pad);
});

test('an unmapped bare specifier is an error that says where to map it', { page: false, reason: "the headless loader's message" }, async () => {
  const error = await assert.rejects(import('react'));
  assert.equal(error.name, 'TypeError');
  assert(error.message.includes('"imports"'), error.message);
});
