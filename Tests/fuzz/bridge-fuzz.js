// The bridge fuzzer: calls every action of every service with generated options (primitives,
// special numbers, lone surrogates, long strings, nested and sparse arrays, typed arrays, Dates,
// symbols, BigInts, functions, cycles, throwing getters, Proxies with throwing traps, revoked
// Proxies, deep nesting, __proto__ and toJSON) by the three ways a script reaches the bridge:
// `nbridge.<service>.<action>(options)`, `nbridge.callToNative(service, action, options)` and
// WKBridgeKit's `window.webkit.messageHandlers.WKBridge.postMessage(command)`.
//
// Run by `nbridge run Tests/fuzz/bridge-fuzz.js -- seed=N iterations=N` (BridgeFuzzTests and
// `make fuzz` do it in a private HOME with headless backends). What it checks, per call:
//   - the call returns a Promise (a synchronous throw is a failure);
//   - the Promise settles within SETTLE_MS, by the clock (postMessage: nbridge.resolvePromise is
//     called once);
//   - a rejection is an Error named NBridgeError whose code is a known code (not unknown_error)
//     and whose message names `service.action`; a denied service rejects permission_denied;
//   - a resolved value is JSON-compatible.
// The process itself must not crash or hang: the driver checks its exit status.
//
// Every generated value is a recipe (plain JSON) built into the value at call time, so a failing
// case prints as JSON, replays alone (`replay=JSON`), and shrinks (`candidates=JSON` lists simpler
// recipes; a failure found in process is shrunk here).
//
// Output lines the driver reads: `FUZZ-CASE n JSON` before each call, `FUZZ-FAIL JSON` per failure,
// `FUZZ-COVERAGE JSON`, `FUZZ-EXIT code`, and last `FUZZ-DONE calls=N failures=N seed=N`.
'use strict';

const CODES = new Set([
  'invalid_service',
  'invalid_action_name',
  'invalid_parameter',
  'permission_denied',
  'not_found',
  'unavailable',
  'timeout',
]);
const SETTLE_MS = 20000;

// ------------------------------------------------------------------ configuration
const config = { seed: undefined, iterations: 2000, seconds: 0, exclude: [], deny: [], trace: true };
for (const arg of nbridge.args) {
  const eq = arg.indexOf('=');
  const [key, value] = eq < 0 ? [arg, ''] : [arg.slice(0, eq), arg.slice(eq + 1)];
  if (key === 'seed') config.seed = Number(value) >>> 0;
  else if (key === 'iterations') config.iterations = Number(value);
  else if (key === 'seconds') config.seconds = Number(value);
  else if (key === 'exclude') config.exclude = value ? value.split(',') : [];
  else if (key === 'deny') config.deny = value ? value.split(',') : [];
  else if (key === 'trace') config.trace = value !== '0';
  else if (key === 'replay') config.replay = JSON.parse(value);
  else if (key === 'candidates') config.candidates = JSON.parse(value);
  else if (key === 'exit') config.exit = true;
  else throw new Error('bridge-fuzz: unknown argument ' + arg);
}
if (config.seed === undefined) config.seed = crypto.getRandomValues(new Uint32Array(1))[0];
const excluded = new Set(config.exclude);

// ------------------------------------------------------------------ a seeded PRNG (mulberry32)
let state = config.seed;
function random() {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const int = (n) => Math.floor(random() * n);
const pick = (list) => list[int(list.length)];
const chance = (p) => random() < p;

// ------------------------------------------------------------------ recipes
// A recipe is JSON: {t: kind, ...}. `build` makes the value, `show` a JS expression for reports.
// Each kind belongs to a category that `exclude=` can leave out.
const CATEGORY = {
  getter: 'getter',
  proxy: 'proxy',
  revoked: 'proxy',
  deep: 'deep',
  sparse: 'sparse',
  typed: 'typed',
  rep: 'long',
  cycle: 'cycle',
  tojson: 'tojson',
};
const NUMBERS = [
  0,
  '-0',
  1,
  -1,
  0.5,
  7,
  255,
  256,
  600,
  1000,
  2 ** 31 - 1,
  2 ** 31,
  2 ** 32,
  2 ** 53,
  2 ** 53 + 2,
  9.2e15,
  1e16,
  1e21,
  2 ** 63,
  -(2 ** 63),
  1.7976931348623157e308,
  5e-324,
  -1e16,
  'NaN',
  'Infinity',
  '-Infinity',
];
const STRINGS = [
  '',
  'a',
  'k',
  'key',
  'x y',
  '\u00e9t\u00e9',
  '\u{1f600}',
  '\ud800',
  '\udbff',
  '\udc00x',
  'a\ud800b',
  '\u0000',
  '\n\r\t',
  '\r\n',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'then',
  '0',
  '-1',
  '1e16',
  'never',
  'minimum',
  'newData',
  'noData',
  'failed',
  'default',
  'https://example.invalid/',
  'file:///etc/passwd',
  'mailto:a@b',
  'x:',
  ':',
  '2026-01-01T00:00:00Z',
  'not a date',
  '../../etc',
  '/abs',
  'com.example.app',
];

// Numbers beyond 2**53 (category 'hugeNumber') are the ones an integer conversion in Swift can trap on.
const isHuge = (v) => typeof v === 'number' && Math.abs(v) > 2 ** 53;
const fits = (v) => !excluded.has('hugeNumber') || !isHuge(v);
// Strings with a lone surrogate (category 'surrogate'): JSON escapes them, UTF-8 cannot hold them.
const lone = /[\ud800-\udbff](?![\udc00-\udfff])|(?:^|[^\ud800-\udbff])[\udc00-\udfff]/;
const wellFormed = (s) => !excluded.has('surrogate') || typeof s !== 'string' || !lone.test(s);
const mend = (s) => (wellFormed(s) ? s : s.replace(/[\ud800-\udfff]/g, 'x'));
function genNumber() {
  const v = chance(0.6) ? pick(NUMBERS) : (random() - 0.5) * 10 ** int(20);
  return { t: 'num', v: fits(v) ? v : 2 ** 53 };
}
function genString() {
  if (chance(0.08) && !excluded.has('long')) {
    return { t: 'rep', s: mend(pick(['a', '\u00e9', '\ud800', '\u{1f600}'])), n: pick([1000, 65536, 1 << 20]) };
  }
  if (chance(0.1)) {
    let s = '';
    for (let i = int(12); i > 0; i--) s += String.fromCharCode(int(chance(0.7) ? 128 : 65536));
    return { t: 'str', v: mend(s) };
  }
  return { t: 'str', v: mend(pick(STRINGS)) };
}

// Leaves of every kind, then containers around them up to `depth`.
function gen(depth) {
  const kinds = [
    'undefined',
    'null',
    'bool',
    'num',
    'num',
    'str',
    'str',
    'str',
    'date',
    'symbol',
    'bigint',
    'fn',
    'boxed',
    'builtin',
    'typed',
    'sparse',
    'getter',
    'proxy',
    'revoked',
    'deep',
    'cycle',
    'tojson',
    'proto',
  ];
  if (depth > 0) kinds.push('arr', 'arr', 'obj', 'obj', 'obj');
  let kind;
  do kind = pick(kinds); while (excluded.has(CATEGORY[kind] || kind));
  switch (kind) {
    case 'undefined':
    case 'null':
    case 'symbol':
    case 'fn':
    case 'revoked':
      return { t: kind };
    case 'bool':
      return { t: 'bool', v: chance(0.5) };
    case 'num':
      return genNumber();
    case 'str':
      return genString();
    case 'date':
      return { t: 'date', v: pick([0, 1e12, 8.64e15, 'NaN', -1]) };
    case 'bigint':
      return { t: 'bigint', v: pick(['0', '1', '-9007199254740993', '123456789012345678901234567890']) };
    case 'boxed':
      return { t: 'boxed', of: pick([{ t: 'num', v: 1 }, { t: 'str', v: 's' }, { t: 'bool', v: false }]) };
    case 'builtin':
      return { t: 'builtin', v: pick(['Map', 'Set', 'RegExp', 'Error', 'Promise', 'WeakMap', 'class', 'nullProto']) };
    case 'typed':
      return {
        t: 'typed',
        v: pick(['Uint8Array', 'Float64Array', 'Int32Array', 'ArrayBuffer', 'DataView']),
        n: pick([0, 3, 1000, 1 << 16, ...(excluded.has('huge') ? [] : [10 << 20])]),
      };
    case 'sparse':
      return {
        t: 'sparse',
        n: pick([5, 1000, 100000, ...(excluded.has('huge') ? [] : [1e7, 2 ** 32 - 1])]),
        at: chance(0.5) ? { i: 1, v: gen(0) } : undefined,
      };
    case 'getter':
      return {
        t: 'getter',
        key: pick(['a', 'key', 'value', 'title', 'then', 'toJSON']),
        inner: chance(0.3) ? gen(0) : undefined,
      };
    case 'proxy':
      return {
        t: 'proxy',
        trap: pick(['get', 'ownKeys', 'getOwnPropertyDescriptor', 'has', 'getPrototypeOf', 'none']),
        array: chance(0.3),
        of: depth > 0 && chance(0.5) ? gen(depth - 1) : { t: 'obj', props: [['a', { t: 'num', v: 1 }]] },
      };
    case 'deep':
      return {
        t: 'deep',
        n: pick([100, 1000, 10000, ...(excluded.has('huge') ? [] : [100000])]),
        array: chance(0.5),
      };
    case 'cycle':
      return { t: 'cycle', array: chance(0.5) };
    case 'tojson':
      return {
        t: 'tojson',
        v: pick([{ t: 'throw' }, { t: 'str', v: 'j' }, { t: 'undefined' }, { t: 'self' }, gen(0)]),
      };
    case 'proto':
      return { t: 'proto', v: gen(0) };
    case 'arr': {
      const items = [];
      for (let i = int(5); i > 0; i--) items.push(gen(depth - 1));
      return { t: 'arr', items };
    }
    default: {
      const props = [];
      for (let i = int(5); i > 0; i--) props.push([genString().v || 'p', gen(depth - 1)]);
      return { t: 'obj', props };
    }
  }
}

// Whether building or serializing the value is itself costly (a huge sparse or typed array, deep nesting).
function heavy(r) {
  if (r === null || typeof r !== 'object') return false;
  if ((r.t === 'sparse' || r.t === 'typed') && r.n > 1 << 16) return true;
  if (r.t === 'deep' && r.n >= 10000) return true;
  return Object.values(r).some((v) => Array.isArray(v) ? v.some(heavy) : heavy(v));
}

function num(v) {
  return typeof v === 'string' ? Number(v) : v;
}
function thrower(what) {
  return () => {
    throw new Error('fuzz: ' + what + ' throws');
  };
}

function build(r) {
  switch (r.t) {
    case 'undefined':
      return undefined;
    case 'null':
      return null;
    case 'bool':
    case 'str':
      return r.v;
    case 'num':
      return num(r.v);
    case 'rep':
      return r.s.repeat(r.n);
    case 'date':
      return new Date(num(r.v));
    case 'symbol':
      return Symbol('fuzz');
    case 'bigint':
      return BigInt(r.v);
    case 'fn':
      return function fuzz() {};
    case 'boxed':
      return Object(build(r.of));
    case 'builtin':
      switch (r.v) {
        case 'Map':
          return new Map([[1, 2]]);
        case 'Set':
          return new Set([1]);
        case 'RegExp':
          return /x/g;
        case 'Error':
          return new Error('e');
        case 'Promise':
          return Promise.resolve(1);
        case 'WeakMap':
          return new WeakMap();
        case 'class':
          return new (class Point {
            constructor() {
              this.x = 1;
            }
          })();
        default:
          return Object.assign(Object.create(null), { a: 1 });
      }
    case 'typed': {
      const buffer = new ArrayBuffer(r.n * (r.v === 'Float64Array' ? 8 : r.v === 'Int32Array' ? 4 : 1));
      if (r.v === 'ArrayBuffer') return buffer;
      if (r.v === 'DataView') return new DataView(buffer);
      return new globalThis[r.v](buffer);
    }
    case 'sparse': {
      const a = [];
      a.length = r.n;
      if (r.at) a[r.at.i] = build(r.at.v);
      return a;
    }
    case 'getter': {
      const o = {};
      Object.defineProperty(o, r.key, { enumerable: true, get: thrower('getter ' + r.key) });
      if (r.inner) o.inner = build(r.inner);
      return o;
    }
    case 'proxy': {
      const target = r.array ? [1, 2] : build(r.of);
      const handler = r.trap === 'none' ? {} : { [r.trap]: thrower('trap ' + r.trap) };
      return new Proxy(target !== null && typeof target === 'object' ? target : {}, handler);
    }
    case 'revoked': {
      const { proxy, revoke } = Proxy.revocable({}, {});
      revoke();
      return proxy;
    }
    case 'deep': {
      let v = 1;
      for (let i = 0; i < r.n; i++) v = r.array ? [v] : { a: v };
      return v;
    }
    case 'cycle': {
      const v = r.array ? [1] : { a: 1 };
      if (r.array) v.push(v);
      else v.self = v;
      return v;
    }
    case 'tojson': {
      const o = { a: 1 };
      if (r.v.t === 'throw') o.toJSON = thrower('toJSON');
      else if (r.v.t === 'self') o.toJSON = () => o;
      else o.toJSON = () => build(r.v);
      return o;
    }
    case 'proto': {
      const o = JSON.parse('{"__proto__": {"polluted": 1}, "b": 2}');
      o.c = build(r.v);
      return o;
    }
    case 'arr':
      return r.items.map(build);
    case 'obj': {
      const o = {};
      for (const [k, v] of r.props) {
        Object.defineProperty(o, k, { value: build(v), enumerable: true, writable: true, configurable: true });
      }
      return o;
    }
  }
  throw new Error('bridge-fuzz: unknown recipe ' + JSON.stringify(r));
}

function show(r) {
  const s = JSON.stringify;
  switch (r.t) {
    case 'undefined':
    case 'null':
      return r.t;
    case 'bool':
      return String(r.v);
    case 'str':
      return s(r.v);
    case 'num':
      return typeof r.v === 'string' ? r.v : Object.is(r.v, -0) ? '-0' : String(r.v);
    case 'rep':
      return s(r.s) + '.repeat(' + r.n + ')';
    case 'date':
      return 'new Date(' + r.v + ')';
    case 'symbol':
      return "Symbol('fuzz')";
    case 'bigint':
      return r.v + 'n';
    case 'fn':
      return 'function () {}';
    case 'boxed':
      return 'Object(' + show(r.of) + ')';
    case 'builtin':
      return '/* ' + r.v + ' */';
    case 'typed':
      return 'new ' + r.v + '(' + r.n + ')';
    case 'sparse':
      return '/* sparse array, length ' + r.n + (r.at ? ', [1] = ' + show(r.at.v) : '') + ' */';
    case 'getter':
      return '{ get ' + s(r.key) + '() { throw new Error() }' + (r.inner ? ', inner: ' + show(r.inner) : '') + ' }';
    case 'proxy':
      return 'new Proxy(' + (r.array ? '[1, 2]' : show(r.of)) + ', { ' + r.trap + '() { throw new Error() } })';
    case 'revoked':
      return '/* revoked Proxy */';
    case 'deep':
      return '/* ' + r.n + ' nested ' + (r.array ? 'arrays' : 'objects') + ' */';
    case 'cycle':
      return '/* ' + (r.array ? 'array' : 'object') + ' holding itself */';
    case 'tojson':
      return '{ a: 1, toJSON() { ' +
        (r.v.t === 'throw' ? 'throw new Error()' : r.v.t === 'self' ? 'return this' : 'return ' + show(r.v)) + ' } }';
    case 'proto':
      return 'Object.assign(JSON.parse(\'{"__proto__": {"polluted": 1}, "b": 2}\'), { c: ' + show(r.v) + ' })';
    case 'arr':
      return '[' + r.items.map(show).join(', ') + ']';
    case 'obj':
      return '{ ' + r.props.map(([k, v]) => s(k) + ': ' + show(v)).join(', ') + ' }';
  }
  return s(r);
}

// Simpler recipes than `r`, most promising first: a leaf instead, a part of it, smaller sizes.
function simpler(r) {
  const out = [];
  if (r.t !== 'undefined') out.push({ t: 'undefined' });
  if (r.t !== 'null' && r.t !== 'undefined') out.push({ t: 'null' });
  switch (r.t) {
    case 'arr':
      r.items.forEach((item, i) => out.push(item, { t: 'arr', items: r.items.filter((_, j) => j !== i) }));
      r.items.forEach((item, i) =>
        simpler(item).forEach((c) => out.push({ t: 'arr', items: r.items.map((x, j) => (j === i ? c : x)) }))
      );
      break;
    case 'obj':
      r.props.forEach(([, v], i) => out.push(v, { t: 'obj', props: r.props.filter((_, j) => j !== i) }));
      r.props.forEach(([k, v], i) =>
        simpler(v).forEach((c) => out.push({ t: 'obj', props: r.props.map((p, j) => (j === i ? [k, c] : p)) }))
      );
      break;
    case 'rep':
      if (r.n > 1) out.push({ ...r, n: Math.floor(r.n / 2) });
      break;
    case 'sparse':
    case 'typed':
    case 'deep':
      if (r.n > 1) out.push({ ...r, n: Math.floor(r.n / 10) });
      if (r.at) out.push({ ...r, at: undefined });
      break;
    case 'proxy':
      if (!r.array && r.of.t !== 'obj') out.push({ ...r, of: { t: 'obj', props: [] } });
      break;
    case 'getter':
      if (r.inner) out.push({ ...r, inner: undefined });
      break;
    case 'num':
      if (r.v !== 0) out.push({ t: 'num', v: 0 });
      break;
    case 'str':
      if (r.v.length > 1) {
        out.push({ t: 'str', v: r.v.slice(0, r.v.length >> 1) }, { t: 'str', v: r.v.slice(r.v.length >> 1) });
      }
      break;
  }
  return out;
}

// ------------------------------------------------------------------ what each action takes
// Field kinds: 'key' (a small pool, so values meet again), 'name', 'id', 'text', 'any', 'url',
// 'number', 'time', 'interval', 'result', 'taskId', 'code', 'actions'.
const FIELDS = {
  'app.appInfo': {},
  'app.deviceInfo': {},
  'app.getState': {},
  'app.getLaunchUrl': {},
  'app.canOpenURL': { url: 'url' },
  'app.openURL': { url: 'url' },
  'storage.get': { key: 'key', defaultValue: 'any', group: 'key' },
  'storage.set': { key: 'key', value: 'any', group: 'key' },
  'storage.remove': { key: 'key', group: 'key' },
  'storage.clear': { group: 'key' },
  'storage.keys': { group: 'key' },
  'preference.get': { key: 'key', defaultValue: 'any' },
  'preference.set': { key: 'key', value: 'any' },
  'preference.remove': { key: 'key' },
  'pasteboard.getString': { name: 'name' },
  'pasteboard.setString': { string: 'text', name: 'name' },
  'pasteboard.hasString': { name: 'name' },
  'pasteboard.clear': { name: 'name' },
  'pasteboard.changeCount': { name: 'name' },
  'pasteboard.create': { name: 'name' },
  'pasteboard.remove': { name: 'name' },
  'notification.show': { title: 'text', body: 'text', id: 'id', data: 'any', actions: 'actions' },
  'notification.schedule': {
    title: 'text',
    body: 'text',
    at: 'time',
    after: 'number',
    every: 'number',
    id: 'id',
    data: 'any',
    actions: 'actions',
  },
  'notification.cancel': { id: 'id' },
  'notification.getPending': {},
  'notification.getDelivered': {},
  'notification.checkPermission': {},
  'notification.requestPermission': {},
  'background.beginTask': { name: 'text' },
  'background.endTask': { id: 'taskId' },
  'background.timeRemaining': {},
  'background.setMinimumFetchInterval': { interval: 'interval' },
  'background.completeFetch': { id: 'taskId', result: 'result' },
  'background.getFetchStatus': {},
  'autostart.enable': {},
  'autostart.disable': {},
  'autostart.isEnabled': {},
  'fs.paths': {},
  'fs.readTextFile': { path: 'path' },
  'fs.readFile': { path: 'path' },
  'fs.writeTextFile': { path: 'path', contents: 'text' },
  'fs.writeFile': { path: 'path', data: 'any' },
  'fs.appendFile': { path: 'path', contents: 'text', data: 'any' },
  'fs.exists': { path: 'path' },
  'fs.stat': { path: 'path' },
  'fs.readDir': { path: 'path' },
  'fs.mkdir': { path: 'path', recursive: 'any' },
  'fs.remove': { path: 'path', recursive: 'any' },
  'fs.rename': { from: 'path', to: 'path' },
  'fs.copyFile': { from: 'path', to: 'path' },
  'fs.watch': { path: 'path' },
  'fs.unwatch': { path: 'path' },
  'fs.forget': { path: 'path' },
  'fs.simulatePick': { path: 'path', folder: 'any' },
  'window.setTitle': { title: 'text', id: 'id' },
  'window.setSize': { width: 'number', height: 'number', id: 'id' },
  'window.setMinSize': { width: 'number', height: 'number', id: 'id' },
  'window.center': { id: 'id' },
  'window.setPosition': { x: 'number', y: 'number', id: 'id' },
  'window.minimize': { id: 'id' },
  'window.maximize': { id: 'id' },
  'window.unmaximize': { id: 'id' },
  'window.setFullscreen': { fullscreen: 'any', id: 'id' },
  'window.setAlwaysOnTop': { alwaysOnTop: 'any', id: 'id' },
  'window.show': { id: 'id' },
  'window.hide': { id: 'id' },
  'window.getState': { id: 'id' },
  'window.create': { url: 'url', title: 'text', width: 'number', height: 'number' },
  'window.close': { id: 'id' },
  'window.list': {},
  'window.keepOpen': { id: 'id', result: 'any' },
  'dialog.open': { multiple: 'any', directory: 'any', filters: 'any', title: 'text', defaultPath: 'text' },
  'dialog.save': { defaultPath: 'text', filters: 'any', title: 'text' },
  'dialog.message': { message: 'text', title: 'text', kind: 'text', buttons: 'any' },
  'dialog.confirm': { message: 'text', title: 'text', kind: 'text', okLabel: 'text', cancelLabel: 'text' },
  'dialog.simulate': { answers: 'any' },
  'tray.create': { icon: 'text', tooltip: 'text', title: 'text', menu: 'any' },
  'tray.setIcon': { icon: 'text' },
  'tray.setTooltip': { tooltip: 'text' },
  'tray.setMenu': { menu: 'any' },
  'tray.remove': {},
  'shortcut.register': { accelerator: 'text' },
  'shortcut.unregister': { accelerator: 'text' },
  'shortcut.isRegistered': { accelerator: 'text' },
  'menu.setApplicationMenu': { items: 'any' },
  'menu.popup': { items: 'any', x: 'number', y: 'number' },
};
// Actions left out of the main loop, and why: `app.exit` ends the run (`exit` mode fuzzes it as
// the last call of a run of its own); `openURL`/`canOpenURL` start a process each, so they are
// rationed (the run's environment has no display and no installed app: nothing opens).
// `fs.simulatePick`, and `dialog.simulate` (a simulated file chooser's answer is a pick too),
// would let the fuzzer grant itself a path such as '/abs' and then write or remove there, outside
// its scratch folder (tests may run as root): their checks are in Tests/js/fs.test.js and
// DialogSimulatedTests.
const SKIPPED = new Set(['app.exit', 'fs.simulatePick', 'dialog.simulate']);
const RATIONED = new Set(['app.openURL', 'app.canOpenURL']);

const POOL = {
  key: ['k', 'key', 'g', '\u00e9', '\ud800', '\udbff', '\udc00', '__proto__'],
  name: ['a', 'b', 'com.example.shared', '\ud800', '\udbff'],
  id: ['n1', 'n2', 'default', 'x'],
  url: ['fuzz-nothing://x', 'https://example.invalid/', 'file:///etc/passwd', 'nourl', 'a:b'],
  time: [0, 1e12, '2000-01-01T00:00:00Z', '2999-01-01T00:00:00Z', 'soon', 8.64e15, 2.6e14],
  number: [0, 1, 5, 999, 1000, 60000, 86400000, -1, 1.5],
  interval: ['never', 'minimum', 600, 3600, 599, 0, 9.2e15, 1e16, -1, 'sometimes'],
  result: ['newData', 'noData', 'failed', 'maybe'],
  code: [0, 1, 7, 255],
  // Outside any scope, a relative path, NUL, `..` out of the data folder: fs refuses them all.
  path: ['/etc/hostname', '/', 'relative', '/tmp/\u0000x', '/proc/self/../../etc', '/nonexistent/a/b'],
};
const taskIds = [];

function genField(kind) {
  if (chance(0.25)) return gen(2);
  switch (kind) {
    case 'any':
      return gen(3);
    case 'text':
      return chance(0.7) ? { t: 'str', v: pick(['title', 'body text', 'x']) } : genString();
    case 'taskId':
      return taskIds.length && chance(0.7) ? { t: 'num', v: pick(taskIds) } : genNumber();
    case 'actions':
      return chance(0.5)
        ? { t: 'arr', items: [{ t: 'obj', props: [['id', genString()], ['title', { t: 'str', v: 'OK' }]] }] }
        : gen(2);
    default: {
      const v = pick(POOL[kind].filter((v) => fits(v) && wellFormed(v)));
      return typeof v === 'number' ? { t: 'num', v } : { t: 'str', v };
    }
  }
}

function genOptions(label) {
  const fields = FIELDS[label] || { key: 'any', name: 'any', id: 'any', value: 'any' };
  const roll = random();
  if (roll < 0.05) return { t: 'undefined' };
  if (roll < 0.12) return gen(2);
  const props = [];
  for (const [name, kind] of Object.entries(fields)) if (chance(0.85)) props.push([name, genField(kind)]);
  if (chance(0.1)) props.push([genString().v || 'extra', gen(1)]);
  return { t: 'obj', props };
}

// ------------------------------------------------------------------ calling and checking
const services = Object.keys(nbridge).filter((s) => typeof nbridge[s] === 'object');
const actions = [];
for (const service of services) {
  for (const action of Object.keys(nbridge[service])) {
    if (typeof nbridge[service][action] === 'function' && !SKIPPED.has(service + '.' + action)) {
      actions.push([service, action]);
    }
  }
}

function jsonProblem(v, path, depth) {
  if (depth > 1000) return path + ' is nested too deeply';
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return undefined;
  if (typeof v === 'number') return isFinite(v) ? undefined : path + ' is ' + v;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const p = jsonProblem(v[i], path + '[' + i + ']', depth + 1);
      if (p) return p;
    }
    return undefined;
  }
  if (typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    for (const k of Object.keys(v)) {
      const p = jsonProblem(v[k], path + '.' + k, depth + 1);
      if (p) return p;
    }
    return undefined;
  }
  return path + ' is not JSON (' + typeof v + ')';
}

// The problem with a rejection, or undefined.
function rejectionProblem(label, e) {
  if (!(e instanceof Error)) return 'rejected with a non-Error: ' + String(e);
  if (e.name !== 'NBridgeError') return 'rejected with ' + e.name + ': ' + e.message;
  if (!CODES.has(e.code)) return 'rejected with code ' + e.code + ': ' + e.message;
  if (typeof e.message !== 'string' || !e.message.startsWith(label + ':')) {
    return 'the message does not start with "' + label + ':": ' + e.message;
  }
  return undefined;
}

const denied = new Set(config.deny);
const ANSWERING = new Set(['notification.checkPermission', 'notification.requestPermission']);
let nextPromiseId = 1;
const waiting = new Map(); // postMessage promiseId -> callback
nbridge.resolvePromise = (promiseId, data, error) => {
  const done = waiting.get(promiseId);
  if (done) {
    waiting.delete(promiseId);
    done(data, error);
  } else {
    report({ kind: 'stray-answer', message: 'resolvePromise(' + String(promiseId) + ') answered twice or unasked' });
  }
};

// Makes the call; resolves {kind, message} for a failure, or {outcome} (for coverage).
function call(c) {
  const label = c.service + '.' + c.action;
  let options;
  try {
    options = build(c.options);
  } catch {
    return Promise.resolve({ outcome: 'unbuildable' });
  }
  let settle;
  const result = new Promise((resolve) => (settle = resolve));
  const timer = setTimeout(
    () => settle({ kind: 'unsettled', message: 'did not settle within ' + SETTLE_MS + ' ms' }),
    SETTLE_MS,
  );
  // A call that blocks the loop (walking a huge value) delays the timer too: time it by the clock.
  const started = Date.now();
  const finish = (r) => {
    clearTimeout(timer);
    const took = Date.now() - started;
    settle(
      !r.kind && took > SETTLE_MS ? { kind: 'slow', message: 'took ' + took + ' ms (' + (r.outcome || '') + ')' } : r,
    );
  };
  const resolved = (value) => {
    if (label === 'background.beginTask' && value && typeof value.id === 'number') taskIds.push(value.id);
    if (denied.has(c.service === 'preference' ? 'storage' : c.service) && !ANSWERING.has(label)) {
      return finish({ kind: 'permission', message: 'resolved though the service is denied' });
    }
    const p = jsonProblem(value === undefined ? null : value, 'result', 0);
    finish(p ? { kind: 'result', message: p } : { outcome: 'resolved' });
  };
  const rejected = (e) => {
    const p = rejectionProblem(label, e);
    if (p) return finish({ kind: 'rejection', message: p });
    // Options JSON cannot carry are refused before the permission is looked at: either code tells
    // the caller no work was done.
    const service = c.service === 'preference' ? 'storage' : c.service;
    if (denied.has(service) && e.code !== 'permission_denied' && e.code !== 'invalid_parameter') {
      return finish({ kind: 'permission', message: 'rejected ' + e.code + ' though the service is denied' });
    }
    finish({ outcome: e.code });
  };
  try {
    if (c.path === 'postMessage') {
      const promiseId = 'p' + nextPromiseId++;
      waiting.set(promiseId, (data, error) => {
        if (error === null) return resolved(data);
        const e = new Error(error && error.message);
        e.name = 'NBridgeError';
        e.code = error && error.code;
        if (data !== e.code) {
          return finish({ kind: 'rejection', message: 'data ' + data + ' is not the code ' + e.code });
        }
        rejected(e);
      });
      const command = { service: c.service, action: c.action, promiseId, option: options };
      let message = command;
      // The fuzzer's own JSON.stringify of a huge value would be what is slow: those go as objects.
      if (c.json && !heavy(c.options)) {
        try {
          message = JSON.stringify(command);
        } catch {
          message = command;
        }
      }
      // deno-lint-ignore no-window -- WKBridgeKit's own core posts through `window`
      window.webkit.messageHandlers.WKBridge.postMessage(message);
    } else {
      const p = c.path === 'callToNative'
        ? nbridge.callToNative(c.service, c.action, options)
        : nbridge[c.service][c.action](options);
      if (!p || typeof p.then !== 'function') {
        finish({ kind: 'not-a-promise', message: 'returned ' + typeof p });
      } else {
        p.then(resolved, rejected);
      }
    }
  } catch (e) {
    finish({ kind: 'sync-throw', message: 'threw ' + (e && e.name) + ': ' + (e && e.message) });
  }
  return result;
}

const failures = [];
function report(failure) {
  failures.push(failure);
  console.log('FUZZ-FAIL ' + JSON.stringify(failure));
}

// Shrinks a case that fails in process to a simplest one failing the same way.
async function shrink(c, kind) {
  let best = c;
  for (let tries = 0; tries < 300;) {
    let improved = false;
    for (const options of simpler(best.options)) {
      if (++tries >= 300) break;
      const candidate = { ...best, options };
      const r = await call(candidate);
      if (r.kind === kind) {
        best = candidate;
        improved = true;
        break;
      }
    }
    if (!improved) break;
  }
  return best;
}

// The first calls of a run take every action once, each path in turn; then actions at random.
function genCase(n) {
  let service, action;
  if (n < actions.length) [service, action] = actions[n];
  else do [service, action] = pick(actions); while (RATIONED.has(service + '.' + action) && !chance(0.05));
  const path = n < actions.length ? PATHS[n % 3] : pick(['method', 'method', 'callToNative', 'postMessage']);
  return {
    service,
    action,
    path,
    json: path === 'postMessage' && chance(0.5),
    options: genOptions(service + '.' + action),
  };
}

const PATHS = ['method', 'callToNative', 'postMessage'];
const coverage = {};
async function fuzz() {
  const deadline = config.seconds > 0 ? Date.now() + config.seconds * 1000 : Infinity;
  const iterations = config.seconds > 0 && !nbridge.args.some((a) => a.startsWith('iterations='))
    ? Infinity
    : config.iterations;
  let n = 0;
  for (let batches = 0; n < iterations && Date.now() < deadline; batches++) {
    if (batches % 10 === 0 && !excluded.has('roundtrip')) await roundTrip();
    const batch = [];
    for (let k = 1 + int(12); k > 0 && n < iterations; k--, n++) {
      const c = genCase(n);
      if (config.trace) console.log('FUZZ-CASE ' + n + ' ' + JSON.stringify(c));
      batch.push(call(c).then((r) => [c, r]));
    }
    const settled = await Promise.all(batch);
    let slow; // a message when a call was slow in the batch but none is slow alone
    for (const [c, r] of settled) {
      const label = c.service + '.' + c.action;
      const by = coverage[label] || (coverage[label] = {});
      const key = r.outcome || 'FAIL ' + r.kind;
      by[key] = (by[key] || 0) + 1;
      by[c.path] = (by[c.path] || 0) + 1;
      // A call that blocked the loop makes its whole batch slow: report the one slow alone.
      if (r.kind === 'slow') {
        if (slow === null) continue; // a batch-mate of the one reported
        if ((await call(c)).kind !== 'slow') {
          slow = slow || r.message;
          continue;
        }
        slow = null;
      }
      if (r.kind) {
        const small = await shrink(c, r.kind);
        report({
          kind: r.kind,
          message: r.message,
          seed: config.seed,
          case: c,
          minimized: small,
          source: sourceOf(small),
        });
      }
    }
    if (slow) {
      const cases = settled.map(([c]) => c);
      report({ kind: 'slow', message: slow + ' in a batch; no call of it is slow alone', seed: config.seed, cases });
    }
  }
  return n;
}

function sourceOf(c) {
  const options = show(c.options);
  if (c.path === 'callToNative') {
    return "nbridge.callToNative('" + c.service + "', '" + c.action + "', " + options + ')';
  }
  if (c.path === 'postMessage') {
    return 'window.webkit.messageHandlers.WKBridge.postMessage(' + (c.json ? 'JSON.stringify(' : '') + "{ service: '" +
      c.service +
      "', action: '" + c.action + "', promiseId: 1, option: " + options + ' }' + (c.json ? ')' : '') + ')';
  }
  return 'nbridge.' + c.service + '.' + c.action + '(' + options + ')';
}

// A JSON value (what `JSON.parse` could give) for the round-trip checks. A recipe holding a
// sparse array, a typed array, deep nesting or a repeated string at any depth is skipped:
// JSON.stringify walks a sparse array's whole length (2 ** 32 - 1) before it runs out of memory,
// 10-13 s a time, which made a run's time depend on its seed (53 s of CPU against 2 s).
const HUGE = /"t":"(deep|sparse|typed|rep)"/;
function jsonValue() {
  for (;;) {
    const r = gen(2);
    if (HUGE.test(JSON.stringify(r))) continue;
    try {
      const text = JSON.stringify(build(r));
      if (text !== undefined) return JSON.parse(text);
    } catch {
      // a cycle, a BigInt, a throwing getter: try another
    }
  }
}
// JSON text with object keys sorted, to compare values whatever order a store keeps keys in.
function canonical(v) {
  if (Array.isArray(v)) return '[' + v.map(canonical).join(',') + ']';
  if (v !== null && typeof v === 'object') {
    return '{' + Object.keys(v).sort().map((k) => JSON.stringify(k) + ':' + canonical(v[k])).join(',') + '}';
  }
  return JSON.stringify(v);
}

// What storage and a named pasteboard acknowledged comes back as it was (two keys or names that
// differ only in lone surrogates must not meet): set two, read both back. Sequential, between batches.
async function roundTrip() {
  const fail = (message) => report({ kind: 'roundtrip', message, seed: config.seed });
  const accepted = async (what, promise) => {
    try {
      await promise;
      return true;
    } catch (e) {
      if (e.code !== 'invalid_parameter') fail(what + ' rejected ' + e.code + ': ' + e.message);
      return false;
    }
  };
  if (!denied.has('storage')) {
    const group = chance(0.5) ? undefined : pick(POOL.key);
    const keys = [pick(POOL.key.filter(wellFormed)), pick(POOL.key.filter(wellFormed))];
    const values = [jsonValue(), jsonValue()];
    const stored = [];
    for (let i = 0; i < 2; i++) {
      stored[i] = await accepted('storage.set', nbridge.storage.set({ key: keys[i], value: values[i], group }));
    }
    for (let i = 0; i < 2; i++) {
      if (!stored[i] || (i === 0 && stored[1] && keys[0] === keys[1])) continue;
      const back = await nbridge.storage.get({ key: keys[i], group });
      if (canonical(back) !== canonical(values[i])) {
        fail(
          'storage.get(' + JSON.stringify(keys[i]) + ') gave ' + canonical(back) + ' after set ' +
            canonical(values[i]) + ' (keys ' + JSON.stringify(keys) + ')',
        );
      }
      const listed = await nbridge.storage.keys({ group });
      if (!listed.includes(keys[i])) {
        fail('storage.keys() ' + JSON.stringify(listed) + ' lacks ' + JSON.stringify(keys[i]));
      }
    }
  }
  if (!denied.has('pasteboard')) {
    const names = [pick(POOL.name.filter(wellFormed)), pick(POOL.name.filter(wellFormed))];
    const strings = names.map(() => genString().v || 's');
    const set = [];
    for (let i = 0; i < 2; i++) {
      set[i] = (await accepted('pasteboard.create', nbridge.pasteboard.create({ name: names[i] }))) &&
        (await accepted('pasteboard.setString', nbridge.pasteboard.setString({ name: names[i], string: strings[i] })));
    }
    for (let i = 0; i < 2; i++) {
      if (!set[i] || (i === 0 && set[1] && names[0] === names[1])) continue;
      const back = await nbridge.pasteboard.getString({ name: names[i] });
      if (back !== strings[i]) {
        fail(
          'pasteboard.getString(' + JSON.stringify(names[i]) + ') gave ' + JSON.stringify(back) + ' after setString ' +
            JSON.stringify(strings[i]) + ' (names ' + JSON.stringify(names) + ')',
        );
      }
    }
  }
}

// Ends what the run started (open tasks, pending schedules) and checks the runtime still answers.
async function cleanUp() {
  for (const id of taskIds) await nbridge.background.endTask({ id }).catch(() => {});
  if (!denied.has('notification')) {
    for (const r of await nbridge.notification.getPending()) await nbridge.notification.cancel({ id: r.id });
  }
  if (!denied.has('storage')) {
    await nbridge.storage.set({ key: 'fuzz-alive', value: [1, 'two', { three: 3 }] });
    const back = await nbridge.storage.get({ key: 'fuzz-alive' });
    if (JSON.stringify(back) !== '[1,"two",{"three":3}]') {
      report({ kind: 'alive', message: 'storage round trip gave ' + JSON.stringify(back) });
    }
  }
}

// The status `app.exit({code})` ends the run with, or undefined when it must reject: the code as
// JSON.stringify sees it (absent or null: 0), an integer from 0 to 255; the bridge refuses what
// JSON would drop or turn into null (a function, a symbol, a BigInt, NaN, Infinity).
function exitStatusFor(code) {
  if (['fn', 'symbol', 'bigint'].includes(code.t) || (code.t === 'num' && !isFinite(num(code.v)))) return undefined;
  let seen;
  try {
    seen = JSON.parse(JSON.stringify({ code: build(code) })).code;
  } catch {
    return undefined;
  }
  if (seen === undefined || seen === null) return 0;
  return Number.isInteger(seen) && seen >= 0 && seen <= 255 ? seen : undefined;
}

// `exit` mode: a few calls, then app.exit with a generated code; prints the status to expect.
async function fuzzExit() {
  const code = chance(0.7)
    ? { t: 'num', v: pick([0, 1, 3, 42, 255, '-0', 256, -1, 1.5, 1e16, 2 ** 32 + 3, 'NaN']) }
    : gen(1);
  const options = chance(0.1) ? { t: 'undefined' } : { t: 'obj', props: [['code', code]] };
  const c = {
    service: 'app',
    action: 'exit',
    path: pick(['method', 'callToNative', 'postMessage']),
    json: false,
    options,
  };
  const expected = options.t === 'undefined' ? 0 : exitStatusFor(code);
  const valid = expected !== undefined;
  console.log('FUZZ-CASE 0 ' + JSON.stringify(c));
  console.log('FUZZ-EXIT ' + (valid ? expected : 42));
  const r = await call(c);
  // A valid exit may resolve before the run ends (pending writes are committed first); the
  // driver checks the exit status.
  if (r.kind) report({ kind: r.kind, message: r.message, case: c, source: sourceOf(c) });
  else if (r.outcome !== (valid ? 'resolved' : 'invalid_parameter')) {
    report({ kind: 'exit', message: 'app.exit gave ' + r.outcome, case: c, source: sourceOf(c) });
  }
  await nbridge.app.exit({ code: failures.length ? 1 : 42 });
}

console.log('bridge-fuzz: seed ' + config.seed + ' (replay the run with seed=' + config.seed + ')');
if (config.candidates) {
  for (const options of simpler(config.candidates.options)) {
    console.log('FUZZ-CANDIDATE ' + JSON.stringify({ ...config.candidates, options }));
  }
} else if (config.replay) {
  console.log('FUZZ-SOURCE ' + sourceOf(config.replay));
  const r = await call(config.replay);
  if (r.kind) report({ kind: r.kind, message: r.message, case: config.replay, source: sourceOf(config.replay) });
  await cleanUp();
  console.log('FUZZ-DONE calls=1 failures=' + failures.length + ' seed=' + config.seed);
} else if (config.exit) {
  await fuzzExit();
} else {
  const n = await fuzz();
  await cleanUp();
  console.log('FUZZ-COVERAGE ' + JSON.stringify(coverage));
  console.log('FUZZ-DONE calls=' + n + ' failures=' + failures.length + ' seed=' + config.seed);
}
if (failures.length) nbridge.app.exit({ code: 1 });
