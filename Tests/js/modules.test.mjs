// ES modules under `nbridge test`: a *.test.mjs file is a module.
// @headless-only: imports CommonJS named exports and needs the headless loader
import makeDefault, { one, two, three, counter, increment, numbers, Box, renamed, 'string name' as stringName, '*' as star } from './modules/values.mjs';
import * as values from './modules/values.mjs';
import first, { deux, all, counter as liveCounter, starAgain } from './modules/reexports.mjs';
import * as reexported from './modules/reexports.mjs';
import AnonymousClass from './modules/default-class.mjs';
import fromExpression from './modules/default-expression.mjs';
import './modules/side-effect.mjs';
import './modules/side-effect.mjs';
import data from './modules/data.json' with { type: 'json' };
import common, { answer } from './modules/common.cjs';
import { log } from './modules/tla-log.mjs';
import './modules/tla-c.mjs';
import { a, seenFromA } from './modules/cycle-a.mjs';
import { early } from './modules/cycle-b.mjs';
import * as meta from './modules/meta.mjs';
import { bumpValueOf, toStringTag, valueOf } from './modules/inherited-names.mjs';

test('imports of every form', () => {
  assert.equal(one, 1);
  assert.equal(two, 2);
  assert.equal(three, 3);
  assert.equal(renamed, 'h');
  assert.equal(stringName, 'h');
  assert.equal(star, 'h', "an export named '*' is a name, not the namespace");
  assert.equal(makeDefault(), 'default function');
  assert.equal(makeDefault.name, 'default');
  assert.equal(new Box(5).v, 5);
  assert.equal(typeof numbers, 'function');
  assert.equal(values.one, 1);
  assert.equal(globalThis.sideEffects, 1, 'a module is evaluated once');
});

test('re-exports: export *, export * as, export { x as default } from', () => {
  assert.equal(first, 1);
  assert.equal(deux, 2);
  assert.equal(all.two, 2);
  assert.equal(all['*'], 'h');
  assert.equal(starAgain, 'h', "a re-export of the name '*' is not the namespace");
  assert.equal(reexported.three, 3);
  assert.equal('renamed' in reexported, true);
  assert.equal('default' in reexported, true);
  assert.equal(reexported.default, 1, 'export * never passes default on');
});

test('default exports of an anonymous class and an expression', () => {
  assert.equal(AnonymousClass.name, 'default');
  assert.equal(new AnonymousClass().hello(), 'hi');
  assert.equal(fromExpression(), 42);
});

test('live bindings: the exporter changes, the importer sees it', () => {
  const before = counter;
  increment();
  assert.equal(counter, before + 1);
  assert.equal(liveCounter, before + 1);
  assert.equal(values.counter, before + 1);
});

test("an export named like an Object.prototype method is the module's own binding", () => {
  assert.equal(valueOf, 1);
  bumpValueOf();
  assert.equal(valueOf, 2);
  assert.equal(toStringTag, 'own');
});

test('an importer cannot assign an imported binding (TypeError)', () => {
  assert.throws(() => {
    counter = 5;
  }, 'TypeError');
  assert.throws(() => {
    values.counter = 5;
  }, 'TypeError');
  assert.equal(counter, values.counter);
});

test('a local that shadows an import is its own variable', () => {
  const one = 'shadow';
  const inner = (two) => two * 10;
  assert.equal(one, 'shadow');
  assert.equal(inner(4), 40);
  assert.equal({ one }.one, 'shadow');
});

test('the namespace object', () => {
  assert.equal(Object.prototype.toString.call(values), '[object Module]');
  assert.equal(Object.getPrototypeOf(values), null);
  assert.equal(Object.isExtensible(values), false);
  assert.deepEqual(Object.keys(values), [...Object.keys(values)].sort());
  assert.equal(Object.keys(values).includes('hidden'), false);
  assert.equal(Reflect.set(values, 'one', 2), false);
});

test('JSON modules', () => {
  assert.deepEqual(data, { name: 'nbridge', list: [1, 2, 3] });
});

test('a JSON file without its type attribute is refused', async () => {
  const error = await assert.rejects(import('./modules/data.json'));
  assert.equal(error.name, 'TypeError');
  assert(error.message.includes("type: 'json'"), error.message);
  const json = await import('./modules/data.json', { with: { type: 'json' } });
  assert.equal(json.default, data);
});

test('CommonJS from import: module.exports is the default, its keys named exports', () => {
  assert.equal(common.answer, 42);
  assert.equal(answer, 42);
  assert.equal(common.greet('you'), 'hello you');
});

test('top-level await: an awaiting module holds back its importers only', () => {
  assert.deepEqual(log, ['a start', 'b', 'a end', 'c']);
});

test('a cycle evaluates in the specification order, with a TDZ ReferenceError', () => {
  assert.equal(a, 'a');
  assert.equal(seenFromA, 'b');
  assert.equal(early instanceof ReferenceError, true);
});

test('import.meta, strict mode and this', () => {
  assert(meta.url.startsWith('file:///') && meta.url.endsWith('/modules/meta.mjs'), meta.url);
  assert.equal(meta.resolved, meta.url.replace('meta.mjs', 'values.mjs'));
  assert.equal(meta.self, undefined);
  assert.equal(meta.strict, true);
  assert.equal(import.meta.url.endsWith('/modules.test.mjs'), true);
});

test('dynamic import() from a module', async () => {
  const ns = await import('./modules/values.mjs');
  assert.equal(ns, values, 'the same namespace object');
  const viaURL = await import(import.meta.resolve('./modules/default-expression.mjs'));
  assert.equal(viaURL.default(), 42);
});

test('errors name the importer and line, and the specifier or export', async () => {
  const missingExport = await assert.rejects(import('./modules/missing-export.mjs'));
  assert.equal(missingExport.name, 'SyntaxError');
  assert(missingExport.message.includes("export named 'nothing'"), missingExport.message);
  assert(missingExport.message.includes('missing-export.mjs:2:'), missingExport.message);

  const missingFile = await assert.rejects(import('./modules/missing-file.mjs'));
  assert(missingFile.message.includes("'./no-such-file.mjs'"), missingFile.message);
  assert(missingFile.message.includes('missing-file.mjs:1:'), missingFile.message);

  const bare = await assert.rejects(import('./modules/bare.mjs'));
  assert.equal(bare.name, 'TypeError');
  assert(bare.message.includes("'left-pad'") && bare.message.includes('bare.mjs:1:'), bare.message);

  const syntax = await assert.rejects(import('./modules/imports-broken.mjs'));
  assert.equal(syntax.name, 'SyntaxError');
  assert.equal(syntax.line, 2);
  assert(syntax.message.includes('imports-broken.mjs:1:'), syntax.message);

  const reserved = await assert.rejects(import('nbridge:nothing'));
  assert(reserved.message.includes('reserved'), reserved.message);
});
