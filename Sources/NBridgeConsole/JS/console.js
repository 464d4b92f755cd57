// The console object, and the formatting the other prelude files share: inspect, format,
// formatStack and formatError (inspect.js, loaded on first need) and shiftColumns.
(function (global, internal) {
  'use strict';
  // Scripts run with top-level await are wrapped in an async function whose head sits on
  // their first line, and modules are rewritten: the widths inserted, by URL, as
  // [line, generated column, width], are taken off the columns after them (inspect.js).
  // A module loader that replays a cached graph hands over a source it asks on first need.
  const columnShifts = new Map();
  let lazyShifts;
  internal.columnShifts = { get: (url) => columnShifts.get(url) ?? (lazyShifts && lazyShifts(url)) };
  // A module body the loader runs as a script's top-level code: its frames say `global code`,
  // which a module has not (formatStack leaves the name out).
  let moduleBodies;
  internal.isModuleBody = (url) => moduleBodies !== undefined && moduleBodies(url);
  // inspect.js: included before this file in a page; in a headless run evaluated on first need.
  let formatting = internal.formatting;
  const formatter = () => (formatting ??= internal.native.loadDeferred('inspect')(global, internal));
  const inspect = (value, depth, seen) => formatter().inspect(value, depth, seen);
  const formatStack = (stack) => formatter().formatStack(stack);
  const formatError = (e) => formatter().formatError(e);
  // Plain strings (the first without a %), numbers, booleans and undefined print as inspect.js
  // would print them, joined by spaces, without loading it.
  function format(items) {
    let text = '';
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      let part;
      switch (typeof item) {
        case 'string':
          if (i === 0 && item.indexOf('%') >= 0) return formatter().format(items);
          part = item;
          break;
        case 'number':
          part = item === 0 && 1 / item < 0 ? '-0' : String(item);
          break;
        case 'boolean':
        case 'undefined':
          part = String(item);
          break;
        default:
          return formatter().format(items);
      }
      text += i === 0 ? part : ' ' + part;
    }
    return text;
  }

  const counters = new Map();
  const timersByLabel = new Map();
  const native = internal.native;
  // The level (0 debug, 1 info, 2 warn, 3 error) is for the log viewer (--log-to).
  const printer = (fd, level) => (...a) => native.print(fd, format(a) + '\n', level);
  const out = printer(1, 1);
  const err = printer(2, 3);
  Object.assign(internal, { inspect, format, formatStack, formatError });
  // No early return (a headless run's prelude runs this body inline, PreludeSource.inlineBytes):
  // a page has WebKit's own console, and takes the formatting only.
  if (!internal.page) {
    // A namespace object (Console standard): its [[Prototype]] is an empty object over Object.prototype.
    const console = Object.create(Object.create(Object.prototype));
    Object.assign(console, {
      log: out,
      info: out,
      debug: printer(1, 0),
      warn: printer(2, 2),
      error: err,
      // Methods, not arrows: JavaScriptCore parses and compiles an arrow function at every start
      // for about 10 k instructions more than a method (none of these reads `this`).
      trace(...a) {
        return err('Trace: ' + format(a) + '\n' + formatStack(new Error().stack));
      },
      assert(cond, ...a) {
        if (!cond) err('Assertion failed' + (a.length ? ': ' + format(a) : ''));
      },
      count(label = 'default') {
        label = String(label);
        counters.set(label, (counters.get(label) || 0) + 1);
        out(label + ': ' + counters.get(label));
      },
      countReset(label = 'default') {
        counters.delete(String(label));
      },
      time(label = 'default') {
        timersByLabel.set(String(label), Date.now());
      },
      timeLog(label = 'default', ...data) {
        label = String(label);
        const start = timersByLabel.get(label);
        if (start !== undefined) {
          out(label + ': ' + (Date.now() - start) + 'ms' + (data.length ? ' ' + format(data) : ''));
        }
      },
      timeEnd(label = 'default') {
        label = String(label);
        out(label + ': ' + (Date.now() - (timersByLabel.get(label) || Date.now())) + 'ms');
        timersByLabel.delete(label);
      },
      dir(v) {
        return out(v);
      },
      dirxml(...a) {
        return out(...a);
      },
      table(v) {
        return out(v);
      },
    });
    Object.defineProperty(global, 'console', { value: console, writable: true, configurable: true });
    Object.defineProperty(global.console, Symbol.toStringTag, { value: 'console', configurable: true });

    Object.assign(internal, {
      shiftColumns(url, shifts) {
        columnShifts.set(url, shifts);
      },
      lazyColumnShifts(source) {
        lazyShifts = source;
      },
      moduleBodies(test) {
        moduleBodies = test;
      },
    });
  }
});
