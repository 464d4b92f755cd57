// btoa/atob, TextEncoder/TextDecoder and structuredClone (JSC's core has none). A deferred file
// (web.js): evaluated on the first touch of one of its names, it returns them.
// Takes: internal.native.legacyDecode, internal.platformObjects, internal.loadWeb('message')
//   (structuredClone's transfer list).
// Gives: its function's result: { btoa, atob, TextEncoder, TextDecoder, structuredClone }.
(function (global, internal) {
  'use strict';
  const b64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const btoa = (input) => {
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
  const atob = (input) => {
    // Forgiving-base64: padding is dropped only from a whole number of quartets ("ab=" is an error).
    let s = String(input).replace(/[\t\n\f\r ]/g, '');
    if (s.length % 4 === 0) s = s.replace(/==?$/, '');
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
      const bytes = new Uint8Array(s.length * 3);
      return bytes.slice(0, encodeInto(s, bytes).written);
    }
    encodeInto(source, destination) {
      if (!(destination instanceof Uint8Array)) {
        throw new TypeError("Failed to execute 'encodeInto': the destination is not a Uint8Array");
      }
      return encodeInto(String(source), destination);
    }
  }
  Object.defineProperty(TextEncoder.prototype, Symbol.toStringTag, { value: 'TextEncoder', configurable: true });

  // UTF-8 of `s` into `out` until it is full (a character never split); lone surrogates as U+FFFD.
  function encodeInto(s, out) {
    let read = 0, written = 0;
    const end = out.length;
    for (let i = 0; i < s.length; i++) {
      let c = s.charCodeAt(i);
      let units = 1;
      if (c >= 0xd800 && c < 0xe000) {
        const d = s.charCodeAt(i + 1);
        if (c < 0xdc00 && d >= 0xdc00 && d < 0xe000) {
          c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
          units = 2;
        } else c = 0xfffd;
      }
      if (c < 0x80) {
        if (written >= end) break;
        out[written++] = c;
      } else if (c < 0x800) {
        if (written + 2 > end) break;
        out[written++] = 0xc0 | (c >> 6);
        out[written++] = 0x80 | (c & 63);
      } else if (c < 0x10000) {
        if (written + 3 > end) break;
        out[written++] = 0xe0 | (c >> 12);
        out[written++] = 0x80 | ((c >> 6) & 63);
        out[written++] = 0x80 | (c & 63);
      } else {
        if (written + 4 > end) break;
        out[written++] = 0xf0 | (c >> 18);
        out[written++] = 0x80 | ((c >> 12) & 63);
        out[written++] = 0x80 | ((c >> 6) & 63);
        out[written++] = 0x80 | (c & 63);
        i++;
      }
      read += units;
    }
    return { read, written };
  }

  // The Encoding Standard's labels for the encodings TextDecoder knows: UTF-8 and UTF-16LE/BE.
  const labels = new Map();
  for (const l of ['unicode-1-1-utf-8', 'unicode11utf8', 'unicode20utf8', 'utf-8', 'utf8', 'x-unicode20utf8']) {
    labels.set(l, 'utf-8');
  }
  for (const l of ['csunicode', 'iso-10646-ucs-2', 'ucs-2', 'unicode', 'unicodefeff', 'utf-16', 'utf-16le']) {
    labels.set(l, 'utf-16le');
  }
  labels.set('unicodefffe', 'utf-16be');
  labels.set('utf-16be', 'utf-16be');

  // The Encoding Standard's legacy encodings: name, labels, and the glibc iconv charset that
  // decodes it (native.legacyDecode); x-user-defined is decoded here, and 'replacement' only
  // names labels TextDecoder refuses. Added to `labels` the first time a label is not found.
  const legacy = [
    ['ibm866', '866 cp866 csibm866 ibm866', 'IBM866'],
    ['iso-8859-2', 'csisolatin2 iso-8859-2 iso-ir-101 iso8859-2 iso88592 iso_8859-2 iso_8859-2:1987 l2 latin2'],
    ['iso-8859-3', 'csisolatin3 iso-8859-3 iso-ir-109 iso8859-3 iso88593 iso_8859-3 iso_8859-3:1988 l3 latin3'],
    ['iso-8859-4', 'csisolatin4 iso-8859-4 iso-ir-110 iso8859-4 iso88594 iso_8859-4 iso_8859-4:1988 l4 latin4'],
    ['iso-8859-5', 'csisolatincyrillic cyrillic iso-8859-5 iso-ir-144 iso8859-5 iso88595 iso_8859-5 iso_8859-5:1988'],
    [
      'iso-8859-6',
      'arabic asmo-708 csiso88596e csiso88596i csisolatinarabic ecma-114 iso-8859-6 iso-8859-6-e iso-8859-6-i ' +
      'iso-ir-127 iso8859-6 iso88596 iso_8859-6 iso_8859-6:1987',
    ],
    [
      'iso-8859-7',
      'csisolatingreek ecma-118 elot_928 greek greek8 iso-8859-7 iso-ir-126 iso8859-7 iso88597 iso_8859-7 ' +
      'iso_8859-7:1987 sun_eu_greek',
    ],
    [
      'iso-8859-8',
      'csiso88598e csisolatinhebrew hebrew iso-8859-8 iso-8859-8-e iso-ir-138 iso8859-8 iso88598 iso_8859-8 ' +
      'iso_8859-8:1988 visual',
    ],
    ['iso-8859-8-i', 'csiso88598i iso-8859-8-i logical', 'ISO-8859-8'],
    ['iso-8859-10', 'csisolatin6 iso-8859-10 iso-ir-157 iso8859-10 iso885910 l6 latin6'],
    ['iso-8859-13', 'iso-8859-13 iso8859-13 iso885913'],
    ['iso-8859-14', 'iso-8859-14 iso8859-14 iso885914'],
    ['iso-8859-15', 'csisolatin9 iso-8859-15 iso8859-15 iso885915 iso_8859-15 l9'],
    ['iso-8859-16', 'iso-8859-16'],
    ['koi8-r', 'cskoi8r koi koi8 koi8-r koi8_r', 'KOI8-R'],
    ['koi8-u', 'koi8-ru koi8-u', 'KOI8-U'],
    ['macintosh', 'csmacintosh mac macintosh x-mac-roman', 'MACINTOSH'],
    ['windows-874', 'dos-874 iso-8859-11 iso8859-11 iso885911 tis-620 windows-874', 'CP874'],
    ['windows-1250', 'cp1250 windows-1250 x-cp1250'],
    ['windows-1251', 'cp1251 windows-1251 x-cp1251'],
    [
      'windows-1252',
      'ansi_x3.4-1968 ascii cp1252 cp819 csisolatin1 ibm819 iso-8859-1 iso-ir-100 iso8859-1 iso88591 iso_8859-1 ' +
      'iso_8859-1:1987 l1 latin1 us-ascii windows-1252 x-cp1252',
    ],
    ['windows-1253', 'cp1253 windows-1253 x-cp1253'],
    [
      'windows-1254',
      'cp1254 csisolatin5 iso-8859-9 iso-ir-148 iso8859-9 iso88599 iso_8859-9 iso_8859-9:1989 l5 latin5 ' +
      'windows-1254 x-cp1254',
    ],
    ['windows-1255', 'cp1255 windows-1255 x-cp1255'],
    ['windows-1256', 'cp1256 windows-1256 x-cp1256'],
    ['windows-1257', 'cp1257 windows-1257 x-cp1257'],
    ['windows-1258', 'cp1258 windows-1258 x-cp1258'],
    ['x-mac-cyrillic', 'x-mac-cyrillic x-mac-ukrainian', 'MAC-CYRILLIC'],
    ['gbk', 'chinese csgb2312 csiso58gb231280 gb2312 gb_2312 gb_2312-80 gbk iso-ir-58 x-gbk', 'GB18030'],
    ['gb18030', 'gb18030', 'GB18030'],
    ['big5', 'big5 big5-hkscs cn-big5 csbig5 x-x-big5', 'BIG5-HKSCS'],
    ['euc-jp', 'cseucpkdfmtjapanese euc-jp x-euc-jp', 'EUC-JP'],
    ['iso-2022-jp', 'csiso2022jp iso-2022-jp', 'ISO-2022-JP'],
    ['shift_jis', 'csshiftjis ms932 ms_kanji shift-jis shift_jis sjis windows-31j x-sjis', 'CP932'],
    [
      'euc-kr',
      'cseuckr csksc56011987 euc-kr iso-ir-149 korean ks_c_5601-1987 ks_c_5601-1989 ksc5601 ksc_5601 windows-949',
      'CP949',
    ],
    ['replacement', 'csiso2022kr hz-gb-2312 iso-2022-cn iso-2022-cn-ext iso-2022-kr', ''],
    ['x-user-defined', 'x-user-defined', ''],
  ];
  // name -> [iconv charset, kind]: 0 multi-byte, 1 single-byte, 2 a windows single-byte code page.
  const charsets = new Map();
  function legacyName(label) {
    if (charsets.size === 0) {
      let singleByte = true;
      for (const [name, names, charset] of legacy) {
        if (name === 'gbk') singleByte = false;
        const windows = name.startsWith('windows-');
        const kind = singleByte ? (windows ? 2 : 1) : 0;
        charsets.set(name, [charset ?? (windows ? 'CP' + name.slice(8) : name.toUpperCase()), kind]);
        for (const l of names.split(' ')) labels.set(l, name);
      }
    }
    return labels.get(label);
  }

  function bytesOf(input) {
    if (input === undefined) return new Uint8Array(0);
    if (ArrayBuffer.isView(input)) {
      return input.byteLength ? new Uint8Array(input.buffer, input.byteOffset, input.byteLength) : new Uint8Array(0);
    }
    const tag = Object.prototype.toString.call(input);
    if (tag === '[object ArrayBuffer]' || tag === '[object SharedArrayBuffer]') return new Uint8Array(input);
    throw new TypeError("Failed to execute 'decode': the input is not an ArrayBuffer or ArrayBufferView");
  }

  // Decoders by the Encoding Standard: push(byte) and end() call emit(codeUnit) and error().
  function utf8Decoder() {
    let needed = 0, seen = 0, point = 0, lower = 0x80, upper = 0xbf;
    return {
      run(bytes, emit, error, flush) {
        for (let i = 0; i < bytes.length; i++) {
          const b = bytes[i];
          if (needed === 0) {
            if (b < 0x80) emit(b);
            else if (b >= 0xc2 && b <= 0xdf) {
              needed = 1;
              point = b & 0x1f;
            } else if (b >= 0xe0 && b <= 0xef) {
              if (b === 0xe0) lower = 0xa0;
              if (b === 0xed) upper = 0x9f;
              needed = 2;
              point = b & 0xf;
            } else if (b >= 0xf0 && b <= 0xf4) {
              if (b === 0xf0) lower = 0x90;
              if (b === 0xf4) upper = 0x8f;
              needed = 3;
              point = b & 7;
            } else error();
            continue;
          }
          if (b < lower || b > upper) {
            needed = seen = point = 0;
            lower = 0x80;
            upper = 0xbf;
            error();
            i--;
            continue;
          }
          lower = 0x80;
          upper = 0xbf;
          point = (point << 6) | (b & 0x3f);
          if (++seen === needed) {
            if (point > 0xffff) {
              point -= 0x10000;
              emit(0xd800 + (point >> 10));
              emit(0xdc00 + (point & 0x3ff));
            } else emit(point);
            needed = seen = point = 0;
          }
        }
        if (flush && needed) {
          needed = seen = point = 0;
          lower = 0x80;
          upper = 0xbf;
          error();
        }
      },
    };
  }
  function utf16Decoder(littleEndian) {
    let leadByte = -1, leadSurrogate = -1;
    return {
      run(bytes, emit, error, flush) {
        for (let i = 0; i < bytes.length; i++) {
          if (leadByte < 0) {
            leadByte = bytes[i];
            continue;
          }
          let unit = littleEndian ? (bytes[i] << 8) | leadByte : (leadByte << 8) | bytes[i];
          leadByte = -1;
          if (leadSurrogate >= 0) {
            const lead = leadSurrogate;
            leadSurrogate = -1;
            if (unit >= 0xdc00 && unit <= 0xdfff) {
              emit(lead);
              emit(unit);
              continue;
            }
            error();
          }
          if (unit >= 0xd800 && unit <= 0xdbff) leadSurrogate = unit;
          else if (unit >= 0xdc00 && unit <= 0xdfff) error();
          else emit(unit);
          unit = 0;
        }
        if (flush && (leadByte >= 0 || leadSurrogate >= 0)) {
          leadByte = leadSurrogate = -1;
          error();
        }
      },
    };
  }

  class TextDecoder {
    #encoding;
    #fatal;
    #ignoreBOM;
    #decoder = null;
    #bomSeen = false;
    #streaming = false;
    constructor(label = 'utf-8', options = undefined) {
      const key = String(label).replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '').replace(/[A-Z]/g, (c) => c.toLowerCase());
      const name = labels.get(key) ?? legacyName(key);
      if (!name || name === 'replacement') {
        throw new RangeError("Failed to construct 'TextDecoder': the encoding '" + label + "' is not supported");
      }
      if (options !== undefined && options !== null && typeof options !== 'object') {
        throw new TypeError("Failed to construct 'TextDecoder': the options are not an object");
      }
      this.#encoding = name;
      this.#fatal = !!options?.fatal;
      this.#ignoreBOM = !!options?.ignoreBOM;
    }
    get encoding() {
      return this.#encoding;
    }
    get fatal() {
      return this.#fatal;
    }
    get ignoreBOM() {
      return this.#ignoreBOM;
    }
    decode(input = undefined, options = undefined) {
      if (charsets.has(this.#encoding)) return this.#decodeLegacy(bytesOf(input), !!options?.stream);
      const bytes = bytesOf(input);
      if (!this.#streaming || !this.#decoder) {
        this.#decoder = this.#encoding === 'utf-8' ? utf8Decoder() : utf16Decoder(this.#encoding === 'utf-16le');
        this.#bomSeen = false;
      }
      this.#streaming = !!options?.stream;
      const units = [];
      const fatal = this.#fatal;
      const emit = (unit) => units.push(unit);
      const error = () => {
        if (fatal) {
          this.#decoder = null;
          throw new TypeError("Failed to execute 'decode': the data is not valid " + this.#encoding);
        }
        units.push(0xfffd);
      };
      this.#decoder.run(bytes, emit, error, !this.#streaming);
      let start = 0;
      if (!this.#bomSeen && units.length) {
        this.#bomSeen = true;
        if (!this.#ignoreBOM && units[0] === 0xfeff) start = 1;
      }
      let out = '';
      for (let i = start; i < units.length; i += 8192) {
        out += String.fromCharCode.apply(null, units.slice(i, Math.min(i + 8192, units.length)));
      }
      return out;
    }
    // A legacy encoding: bytes of a cut-off sequence wait in #pending for the stream's next chunk.
    #pending = null;
    #decodeLegacy(bytes, stream) {
      if (!this.#streaming) this.#pending = null;
      this.#streaming = stream;
      if (this.#encoding === 'x-user-defined') {
        let out = '';
        for (let i = 0; i < bytes.length; i++) {
          out += String.fromCharCode(bytes[i] < 0x80 ? bytes[i] : 0xf700 + bytes[i]);
        }
        return out;
      }
      let data = bytes;
      if (this.#pending) {
        data = new Uint8Array(this.#pending.length + bytes.length);
        data.set(this.#pending);
        data.set(bytes, this.#pending.length);
      }
      const [charset, kind] = charsets.get(this.#encoding);
      const result = internal.native.legacyDecode(charset, data, !stream, this.#fatal, kind);
      if (result === null) {
        this.#pending = null;
        this.#streaming = false;
        throw new TypeError("Failed to execute 'decode': the data is not valid " + this.#encoding);
      }
      this.#pending = result[1] < data.length ? data.slice(result[1]) : null;
      return result[0];
    }
  }
  Object.defineProperty(TextDecoder.prototype, Symbol.toStringTag, { value: 'TextDecoder', configurable: true });
  // Prototypes of the platform objects the web APIs define (URL, Event, ...; web.js makes the set):
  // none is serializable.
  const isPlatformObject = (v) => {
    for (let p = Object.getPrototypeOf(v); p; p = Object.getPrototypeOf(p)) {
      if (internal.platformObjects.has(p)) return true;
    }
    return false;
  };
  const structuredClone = function structuredClone(value, options = undefined) {
    if (options !== undefined && options !== null) {
      if (typeof options !== 'object' && typeof options !== 'function') {
        throw new TypeError('structuredClone: the options must be an object');
      }
      const transfer = options.transfer;
      if (transfer !== undefined) {
        if (transfer === null || typeof transfer !== 'object' || typeof transfer[Symbol.iterator] !== 'function') {
          throw new TypeError('structuredClone: "transfer" must be a sequence of objects');
        }
        const list = [...transfer];
        // Moving ArrayBuffers and MessagePorts is message.js's, loaded for it.
        if (list.length > 0) return internal.loadWeb('message').transferClone(value, list);
      }
    }
    const copies = new Map();
    function clone(v) {
      if (typeof v === 'function' || typeof v === 'symbol') {
        throw new DOMException(String(v) + ' could not be cloned.', 'DataCloneError');
      }
      if (v === null || typeof v !== 'object') return v;
      if (copies.has(v)) return copies.get(v);
      if (internal.platformObjects.size && isPlatformObject(v)) {
        throw new DOMException(Object.prototype.toString.call(v) + ' could not be cloned.', 'DataCloneError');
      }
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
  return { btoa, atob, TextEncoder, TextDecoder, structuredClone };
});
