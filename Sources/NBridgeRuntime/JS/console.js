// console: formatting values as Node and the page's devtools print them, and the console object.
// Exports inspect, format, formatStack and shiftColumns to the other prelude files.
(function (global, internal) {
  'use strict';
  function quote(s) {
    return "'" + s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n') + "'";
  }
  function keyText(k) {
    return /^[A-Za-z_$][\w$]*$/.test(k) ? k : quote(k);
  }
  function inspect(value, depth, seen) {
    switch (typeof value) {
      case 'string':
        return depth === 0 ? value : quote(value);
      case 'number':
        return Object.is(value, -0) ? '-0' : String(value);
      case 'bigint':
        return value + 'n';
      case 'boolean':
      case 'undefined':
        return String(value);
      case 'symbol':
        return value.toString();
      case 'function':
        return '[Function: ' + (value.name || '(anonymous)') + ']';
    }
    if (value === null) return 'null';
    if (seen.indexOf(value) >= 0) return '[Circular]';
    if (value instanceof Error) {
      const head = value.stack ? value.name + ': ' + value.message + '\n' + formatStack(value.stack) : String(value);
      const extra = value.code !== undefined ? ' { code: ' + quote(String(value.code)) + ' }' : '';
      return depth === 0 ? head + extra : '[' + value.name + ': ' + value.message + ']' + extra;
    }
    if (value instanceof Date) return isNaN(value) ? 'Invalid Date' : value.toISOString();
    if (value instanceof RegExp) return String(value);
    if (depth > 2) return Array.isArray(value) ? '[Array]' : '[Object]';
    seen.push(value);
    let out;
    try {
      if (Array.isArray(value)) {
        const items = value.slice(0, 100).map((v) => inspect(v, depth + 1, seen));
        if (value.length > 100) items.push('... ' + (value.length - 100) + ' more items');
        out = items.length ? '[ ' + items.join(', ') + ' ]' : '[]';
      } else if (value instanceof Map) {
        const items = [];
        value.forEach((v, k) => items.push(inspect(k, depth + 1, seen) + ' => ' + inspect(v, depth + 1, seen)));
        out = 'Map(' + value.size + ') {' + (items.length ? ' ' + items.join(', ') + ' ' : '') + '}';
      } else if (value instanceof Set) {
        const items = [];
        value.forEach((v) => items.push(inspect(v, depth + 1, seen)));
        out = 'Set(' + value.size + ') {' + (items.length ? ' ' + items.join(', ') + ' ' : '') + '}';
      } else if (ArrayBuffer.isView(value)) {
        out = value.constructor.name + '(' + value.length + ') [ ' +
          Array.prototype.slice.call(value, 0, 50).join(', ') + ' ]';
      } else if (value instanceof Promise) {
        out = 'Promise { <pending> }';
      } else {
        const keys = Object.keys(value);
        const items = keys.map((k) => keyText(k) + ': ' + inspect(value[k], depth + 1, seen));
        const proto = Object.getPrototypeOf(value);
        const name = proto && proto !== Object.prototype && proto.constructor && proto.constructor.name;
        out = (name ? name + ' ' : '') + (items.length ? '{ ' + items.join(', ') + ' }' : '{}');
      }
    } finally {
      seen.pop();
    }
    return out;
  }
  function format(items) {
    const first = items[0];
    let rest = 1;
    let text = '';
    if (typeof first === 'string' && first.indexOf('%') >= 0) {
      text = first.replace(/%([sdifoOjc%])/g, (m, f) => {
        if (f === '%') return '%';
        if (rest >= items.length) return m;
        const v = items[rest++];
        switch (f) {
          case 's':
            return typeof v === 'string' ? v : inspect(v, 1, []);
          case 'd':
          case 'i':
            return typeof v === 'object' ? 'NaN' : String(f === 'i' ? parseInt(v) : Number(v));
          case 'f':
            return String(parseFloat(v));
          case 'j':
            try {
              return JSON.stringify(v);
            } catch {
              return '[Circular]';
            }
          case 'c':
            return '';
          default:
            return inspect(v, 1, []);
        }
      });
    } else {
      text = typeof first === 'string' ? first : inspect(first, 0, []);
    }
    // A string prints as itself: a hello never compiles inspect.
    for (; rest < items.length; rest++) {
      const item = items[rest];
      text += ' ' + (typeof item === 'string' ? item : inspect(item, 0, []));
    }
    return text;
  }
  // Scripts run with top-level await are wrapped in an async function whose head sits on
  // their first line, and modules are rewritten: the widths inserted, by URL, as
  // [line, generated column, width], are taken off the columns after them.
  const columnShifts = new Map();
  function unshift(where) {
    const m = /^(.*):(\d+):(\d+)$/.exec(where);
    const shifts = m && columnShifts.get(m[1]);
    if (!shifts) return where;
    const line = Number(m[2]);
    const column = Number(m[3]) - 1;
    let original = column;
    for (const [l, at, width] of shifts) {
      if (l !== line || column < at) continue;
      original -= Math.min(width, column - at);
    }
    return m[1] + ':' + line + ':' + (Math.max(0, original) + 1);
  }
  function formatStack(stack) {
    // The module loader's own frames say nothing about the app's code.
    return String(stack || '').split('\n').filter((l) => l && !l.includes('@nbridge:modules:')).map((line) => {
      const at = line.lastIndexOf('@');
      if (at < 0) return '    at ' + unshift(line);
      const fn = line.slice(0, at);
      const where = unshift(line.slice(at + 1));
      return '    at ' + (fn ? fn + ' (' + where + ')' : where);
    }).join('\n');
  }

  const counters = new Map();
  const timersByLabel = new Map();
  const native = internal.native;
  // The level (0 debug, 1 info, 2 warn, 3 error) is for the log viewer (--log-to).
  const printer = (fd, level) => (...a) => native.print(fd, format(a) + '\n', level);
  const out = printer(1, 1);
  const err = printer(2, 3);
  if (internal.page) {
    Object.assign(internal, { inspect, format, formatStack });
    return;
  }
  // A namespace object (Console standard): its [[Prototype]] is an empty object over Object.prototype.
  const console = Object.create(Object.create(Object.prototype));
  Object.assign(console, {
    log: out,
    info: out,
    debug: printer(1, 0),
    warn: printer(2, 2),
    error: err,
    trace: (...a) => err('Trace: ' + format(a) + '\n' + formatStack(new Error().stack)),
    assert: (cond, ...a) => {
      if (!cond) err('Assertion failed' + (a.length ? ': ' + format(a) : ''));
    },
    count: (label = 'default') => {
      label = String(label);
      counters.set(label, (counters.get(label) || 0) + 1);
      out(label + ': ' + counters.get(label));
    },
    countReset: (label = 'default') => {
      counters.delete(String(label));
    },
    time: (label = 'default') => {
      timersByLabel.set(String(label), Date.now());
    },
    timeLog: (label = 'default', ...data) => {
      label = String(label);
      const start = timersByLabel.get(label);
      if (start !== undefined) {
        out(label + ': ' + (Date.now() - start) + 'ms' + (data.length ? ' ' + format(data) : ''));
      }
    },
    timeEnd: (label = 'default') => {
      label = String(label);
      out(label + ': ' + (Date.now() - (timersByLabel.get(label) || Date.now())) + 'ms');
      timersByLabel.delete(label);
    },
    dir: (v) => out(v),
    dirxml: (...a) => out(...a),
    table: (v) => out(v),
  });
  Object.defineProperty(global, 'console', { value: console, writable: true, configurable: true });
  Object.defineProperty(global.console, Symbol.toStringTag, { value: 'console', configurable: true });

  Object.assign(internal, {
    inspect,
    format,
    formatStack,
    shiftColumns(url, shifts) {
      columnShifts.set(url, shifts);
    },
  });
});
