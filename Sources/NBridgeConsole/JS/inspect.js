// Formatting values as Node and the page's devtools print them: inspect, format (with console's
// %-substitutions), formatStack and formatError (an uncaught value, as the runtime reports it). A headless run evaluates this file on first need
// (console.js: a line of plain strings never needs it); a page's prelude includes it.
(function (_global, internal) {
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
      const stack = value.stack ? formatStack(value.stack) : '';
      const head = stack ? value.name + ': ' + value.message + '\n' + stack : String(value);
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
    if (items.length === 0) return '';
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
    for (; rest < items.length; rest++) {
      const item = items[rest];
      text += ' ' + (typeof item === 'string' ? item : inspect(item, 0, []));
    }
    return text;
  }
  function unshift(where) {
    const m = /^(.*):(\d+):(\d+)$/.exec(where);
    // Registered with internal.shiftColumns (console.js, which runs after this file in a page).
    const shifts = m && internal.columnShifts.get(m[1]);
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
  // The module loader's own frames say nothing about the app's code.
  const loaderFrame = (l) => l.includes('@nbridge:modules:') || l === 'evaluateModuleBody@[native code]';
  function formatStack(stack) {
    return String(stack || '').split('\n').filter((l) => l && !loaderFrame(l)).map((line) => {
      const at = line.lastIndexOf('@');
      if (at < 0) return '    at ' + unshift(line);
      let fn = line.slice(0, at);
      const where = unshift(line.slice(at + 1));
      if (fn === 'global code' && internal.isModuleBody(where.replace(/:\d+:\d+$/, ''))) fn = '';
      return '    at ' + (fn ? fn + ' (' + where + ')' : where);
    }).join('\n');
  }

  // An uncaught value as the runtime reports it: an error's name, message, code and stack.
  function formatError(e) {
    if (!(e instanceof Error)) return inspect(e, 1, []);
    const stack = formatStack(e.stack);
    const code = e.code === undefined
      ? ''
      : internal.NBridgeError !== undefined && e instanceof internal.NBridgeError
      ? ' [' + e.code + ']'
      : ' (code ' + e.code + ')';
    return (e.name || 'Error') + ': ' + e.message + code + (stack ? '\n' + stack : '');
  }

  internal.formatting = { inspect, format, formatStack, formatError };
  return internal.formatting;
});
