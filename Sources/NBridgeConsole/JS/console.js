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
  internal.columnShifts = {
    get(url) {
      return columnShifts.get(url) ?? (lazyShifts && lazyShifts(url));
    },
  };
  // A module body the loader runs as a script's top-level code: its frames say `global code`,
  // which a module has not (formatStack leaves the name out).
  let moduleBodies;
  internal.isModuleBody = function (url) {
    return moduleBodies !== undefined && moduleBodies(url);
  };
  // inspect.js: included before this file in a page; in a headless run evaluated on first need.
  let formatting = internal.formatting;
  // Functions, not arrows (here and below where nothing reads `this`): JavaScriptCore parses and
  // compiles an arrow function at every start for about 8 k instructions more.
  function formatter() {
    return (formatting ??= internal.native.loadDeferred('inspect')(global, internal));
  }
  function inspect(value, depth, seen) {
    return formatter().inspect(value, depth, seen);
  }
  function formatStack(stack) {
    return formatter().formatStack(stack);
  }
  function formatError(e) {
    return formatter().formatError(e);
  }
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

  const native = internal.native;
  // The level (0 debug, 1 info, 2 warn, 3 error) is for the log viewer (--log-to).
  function printer(fd, level) {
    return (...a) => native.print(fd, format(a) + '\n', level);
  }
  const out = printer(1, 1);
  const err = printer(2, 3);
  Object.assign(internal, { inspect, format, formatStack, formatError });
  // No early return (a headless run's prelude runs this body inline, ScriptFiles.inline):
  // a page has WebKit's own console, and takes the formatting only.
  if (!internal.page) {
    // A namespace object (Console standard): its [[Prototype]] is an empty object over Object.prototype.
    const console = Object.create(Object.create(Object.prototype));
    // The methods a script seldom calls (trace, assert, count, time and their kin) are evaluated
    // on the first call of one (console-more.js): here each is a stub of the same name and
    // length that forwards to it, which a start builds for about 60 k instructions less than
    // the full bodies (callgrind, a hello).
    let more;
    const methods = function () {
      return (more ??= native.loadDeferred('console-more')(internal, out, err));
    };
    Object.assign(console, {
      log: out,
      info: out,
      debug: printer(1, 0),
      warn: printer(2, 2),
      error: err,
      // Methods, not arrows: JavaScriptCore parses and compiles an arrow function at every start
      // for about 10 k instructions more than a method (none of these reads `this`).
      trace(...a) {
        return methods().trace(...a);
      },
      assert(cond, ...a) {
        return methods().assert(cond, ...a);
      },
      count(...a) {
        return methods().count(...a);
      },
      countReset(...a) {
        return methods().countReset(...a);
      },
      time(...a) {
        return methods().time(...a);
      },
      timeLog(...a) {
        return methods().timeLog(...a);
      },
      timeEnd(...a) {
        return methods().timeEnd(...a);
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
