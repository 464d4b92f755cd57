// btoa/atob, TextEncoder/TextDecoder and structuredClone (JSC's core has none).
(function (global, _internal) {
  'use strict';
  const b64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  global.btoa = (input) => {
    const s = String(input);
    let result = '';
    for (let i = 0; i < s.length; i += 3) {
      const a = s.charCodeAt(i), b = s.charCodeAt(i + 1), c = s.charCodeAt(i + 2);
      if (a > 255 || b > 255 || c > 255) {
        throw new DOMException(
          'btoa: the string contains characters outside of the Latin1 range',
          'InvalidCharacterError',
        );
      }
      const n = (a << 16) | ((b || 0) << 8) | (c || 0);
      result += b64[n >> 18] + b64[(n >> 12) & 63] + (i + 1 < s.length ? b64[(n >> 6) & 63] : '=') +
        (i + 2 < s.length ? b64[n & 63] : '=');
    }
    return result;
  };
  global.atob = (input) => {
    const s = String(input).replace(/[\t\n\f\r ]/g, '').replace(/==?$/, '');
    if (s.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(s)) {
      throw new DOMException('atob: the string is not correctly encoded', 'InvalidCharacterError');
    }
    let result = '';
    let bits = 0, buffer = 0;
    for (let i = 0; i < s.length; i++) {
      buffer = (buffer << 6) | b64.indexOf(s[i]);
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        result += String.fromCharCode((buffer >> bits) & 255);
      }
    }
    return result;
  };

  class TextEncoder {
    get encoding() {
      return 'utf-8';
    }
    encode(input = '') {
      const s = String(input);
      const bytes = [];
      for (let i = 0; i < s.length; i++) {
        let c = s.charCodeAt(i);
        if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length) {
          const d = s.charCodeAt(i + 1);
          if (d >= 0xdc00 && d < 0xe000) {
            c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
            i++;
          } else c = 0xfffd;
        } else if (c >= 0xd800 && c < 0xe000) c = 0xfffd;
        if (c < 0x80) bytes.push(c);
        else if (c < 0x800) bytes.push(0xc0 | (c >> 6), 0x80 | (c & 63));
        else if (c < 0x10000) bytes.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
        else bytes.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
      }
      return new Uint8Array(bytes);
    }
  }
  class TextDecoder {
    constructor(label = 'utf-8', options = {}) {
      const l = String(label).toLowerCase();
      if (l !== 'utf-8' && l !== 'utf8') throw new RangeError('TextDecoder: only utf-8 is supported, not ' + label);
      this.fatal = !!options.fatal;
    }
    get encoding() {
      return 'utf-8';
    }
    decode(input) {
      if (input === undefined) return '';
      const bytes = input instanceof ArrayBuffer
        ? new Uint8Array(input)
        : new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
      let s = '';
      for (let i = 0; i < bytes.length;) {
        const b = bytes[i];
        let c = 0xfffd, n = 1;
        if (b < 0x80) c = b;
        else if (b >= 0xc2 && b < 0xe0 && (bytes[i + 1] & 0xc0) === 0x80) {
          c = ((b & 31) << 6) | (bytes[i + 1] & 63);
          n = 2;
        } else if (b >= 0xe0 && b < 0xf0 && (bytes[i + 1] & 0xc0) === 0x80 && (bytes[i + 2] & 0xc0) === 0x80) {
          c = ((b & 15) << 12) | ((bytes[i + 1] & 63) << 6) | (bytes[i + 2] & 63);
          n = 3;
          if (c < 0x800 || (c >= 0xd800 && c < 0xe000)) {
            c = 0xfffd;
            n = 1;
          }
        } else if (
          b >= 0xf0 && b < 0xf5 && (bytes[i + 1] & 0xc0) === 0x80 && (bytes[i + 2] & 0xc0) === 0x80 &&
          (bytes[i + 3] & 0xc0) === 0x80
        ) {
          c = ((b & 7) << 18) | ((bytes[i + 1] & 63) << 12) | ((bytes[i + 2] & 63) << 6) | (bytes[i + 3] & 63);
          n = 4;
          if (c < 0x10000 || c > 0x10ffff) {
            c = 0xfffd;
            n = 1;
          }
        }
        if (c === 0xfffd && n === 1 && b >= 0x80 && this.fatal) {
          throw new TypeError('TextDecoder: the data is not valid utf-8');
        }
        s += String.fromCodePoint(c);
        i += n;
      }
      return s;
    }
  }
  global.TextEncoder = TextEncoder;
  global.TextDecoder = TextDecoder;

  global.structuredClone = function structuredClone(value) {
    const copies = new Map();
    function clone(v) {
      if (typeof v === 'function' || typeof v === 'symbol') {
        throw new DOMException(String(v) + ' could not be cloned.', 'DataCloneError');
      }
      if (v === null || typeof v !== 'object') return v;
      if (copies.has(v)) return copies.get(v);
      let c;
      if (v instanceof Date) c = new Date(v.getTime());
      else if (v instanceof RegExp) c = new RegExp(v.source, v.flags);
      else if (v instanceof ArrayBuffer) c = v.slice(0);
      else if (ArrayBuffer.isView(v)) c = new v.constructor(v);
      else if (v instanceof Map) {
        c = new Map();
        copies.set(v, c);
        v.forEach((x, k) => c.set(clone(k), clone(x)));
        return c;
      } else if (v instanceof Set) {
        c = new Set();
        copies.set(v, c);
        v.forEach((x) => c.add(clone(x)));
        return c;
      } else if (v instanceof Error) {
        c = new (global[v.name] || Error)(v.message);
        c.stack = v.stack;
      } else if (Array.isArray(v)) {
        c = [];
        copies.set(v, c);
        v.forEach((x, i) => {
          c[i] = clone(x);
        });
        return c;
      } else {
        c = {};
        copies.set(v, c);
        for (const k of Object.keys(v)) c[k] = clone(v[k]);
        return c;
      }
      copies.set(v, c);
      return c;
    }
    return clone(value);
  };
});
