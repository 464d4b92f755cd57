// The WHATWG URL Standard's basic URL parser: every state, with the state overrides URL's setters
// use; hosts (IPv4, IPv6, opaque, and domains through ICU's UTS #46 when not plain ASCII, as
// WebKit does); percent-encoding; serializing and origin. Records are plain objects
// ({ scheme, username, password, host, port, path, query, fragment }).
// Takes: internal.native.domainToASCII.
// Gives (its function's result, for url.js): parse, parseURL, serialize, origin, the percent-encode
// helpers and sets, hasOpaquePath, pathText, stripTrailingSpaces, FAILURE and the state overrides.
(function (_global, internal) {
  'use strict';
  const native = internal.native;
  const EOF = -1;
  // Parser states (small integers: the switch below is the hot path).
  const [
    SCHEME_START,
    SCHEME,
    NO_SCHEME,
    SPECIAL_RELATIVE_OR_AUTHORITY,
    PATH_OR_AUTHORITY,
    RELATIVE,
    RELATIVE_SLASH,
    SPECIAL_AUTHORITY_SLASHES,
    SPECIAL_AUTHORITY_IGNORE_SLASHES,
    AUTHORITY,
    HOST,
    HOSTNAME,
    PORT,
    FILE,
    FILE_SLASH,
    FILE_HOST,
    PATH_START,
    PATH,
    OPAQUE_PATH,
    QUERY,
    FRAGMENT,
  ] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21];
  const special = new Map([['ftp', 21], ['file', null], ['http', 80], ['https', 443], ['ws', 80], ['wss', 443]]);
  const FAILURE = null;

  // Percent-encode sets as predicates over a code unit below 0x80 (all others are encoded).
  const c0 = (c) => c < 0x20 || c > 0x7e;
  const fragmentSet = (c) => c0(c) || c === 0x20 || c === 0x22 || c === 0x3c || c === 0x3e || c === 0x60;
  const querySet = (c) => c0(c) || c === 0x20 || c === 0x22 || c === 0x23 || c === 0x3c || c === 0x3e;
  const specialQuerySet = (c) => querySet(c) || c === 0x27;
  const pathSet = (c) => querySet(c) || c === 0x3f || c === 0x5e || c === 0x60 || c === 0x7b || c === 0x7d;
  const userinfoSet = (c) =>
    pathSet(c) || c === 0x2f || c === 0x3a || c === 0x3b || c === 0x3d || c === 0x40 || (c >= 0x5b && c <= 0x5d) ||
    c === 0x7c;
  const componentSet = (c) => userinfoSet(c) || (c >= 0x24 && c <= 0x26) || c === 0x2b || c === 0x2c;
  const formSet = (c) => componentSet(c) || c === 0x21 || (c >= 0x27 && c <= 0x29) || c === 0x7e;
  const hexDigits = '0123456789ABCDEF';
  const pct = (b) => '%' + hexDigits[b >> 4] + hexDigits[b & 15];

  // UTF-8 percent-encodes the code point at s[i] (a pair counts as one); returns [text, units].
  function encodePoint(s, i) {
    let c = s.charCodeAt(i);
    let units = 1;
    if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d < 0xe000) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        units = 2;
      }
    }
    if (c >= 0xd800 && c < 0xe000) c = 0xfffd;
    let out;
    if (c < 0x80) out = pct(c);
    else if (c < 0x800) out = pct(0xc0 | (c >> 6)) + pct(0x80 | (c & 63));
    else if (c < 0x10000) out = pct(0xe0 | (c >> 12)) + pct(0x80 | ((c >> 6) & 63)) + pct(0x80 | (c & 63));
    else {
      out = pct(0xf0 | (c >> 18)) + pct(0x80 | ((c >> 12) & 63)) + pct(0x80 | ((c >> 6) & 63)) +
        pct(0x80 | (c & 63));
    }
    return [out, units];
  }
  function percentEncode(s, set, spaceAsPlus = false) {
    let out = '';
    let start = 0;
    for (let i = 0; i < s.length;) {
      const c = s.charCodeAt(i);
      if (c < 0x80 && !set(c)) {
        i++;
        continue;
      }
      if (spaceAsPlus && c === 0x20) {
        out += s.slice(start, i) + '+';
        start = ++i;
        continue;
      }
      if (c < 0x80) {
        out += s.slice(start, i) + pct(c);
        start = ++i;
        continue;
      }
      const [text, units] = encodePoint(s, i);
      out += s.slice(start, i) + text;
      i += units;
      start = i;
    }
    return start === 0 ? s : out + s.slice(start);
  }
  const hexValue = (c) =>
    c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x41 && c <= 0x46 ? c - 55 : c >= 0x61 && c <= 0x66 ? c - 87 : -1;
  // Percent-decodes the UTF-8 of `s` into bytes.
  function percentDecodeBytes(s) {
    const bytes = [];
    for (let i = 0; i < s.length;) {
      const c = s.charCodeAt(i);
      if (
        c === 0x25 && i + 2 < s.length + 0 && hexValue(s.charCodeAt(i + 1)) >= 0 && hexValue(s.charCodeAt(i + 2)) >= 0
      ) {
        bytes.push(hexValue(s.charCodeAt(i + 1)) * 16 + hexValue(s.charCodeAt(i + 2)));
        i += 3;
      } else if (c < 0x80) {
        bytes.push(c);
        i++;
      } else {
        const [text, units] = encodePoint(s, i);
        for (let k = 1; k < text.length; k += 3) bytes.push(parseInt(text.slice(k, k + 2), 16));
        i += units;
      }
    }
    return new Uint8Array(bytes);
  }
  const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
  const percentDecode = (s) => (s.indexOf('%') < 0 ? s : utf8.decode(percentDecodeBytes(s)));

  // Hosts.
  // deno-lint-ignore no-control-regex
  const forbiddenHost = /[\x00\t\n\r #/:<>?@[\\\]^|]/;
  // deno-lint-ignore no-control-regex
  const forbiddenDomain = /[\x00-\x20#%/:<>?@[\\\]^|\x7f]/;

  // Regular expressions made once (a literal in a function body is a new object at every call).
  const decimal = /^[0-9]+$/, hexadecimal = /^[0-9a-fA-F]+$/, octal = /^[0-7]+$/;
  const nonASCII = /[\u0080-\uffff]/;
  const idnaCache = new Map();
  function parseIPv4Number(s) {
    if (s === '') return FAILURE;
    let radix = 10;
    if (s.length >= 2 && (s.startsWith('0x') || s.startsWith('0X'))) {
      radix = 16;
      s = s.slice(2);
    } else if (s.length >= 2 && s.charCodeAt(0) === 0x30) {
      radix = 8;
      s = s.slice(1);
    }
    if (s === '') return 0;
    const valid = radix === 10 ? decimal : radix === 16 ? hexadecimal : octal;
    if (!valid.test(s)) return FAILURE;
    return parseInt(s, radix);
  }
  function endsInANumber(s) {
    // Only a last label that starts with a digit can be a number.
    const end = s.charCodeAt(s.length - 1) === 0x2e ? s.length - 1 : s.length;
    const first = s.charCodeAt(s.lastIndexOf('.', end - 1) + 1);
    if (!(first >= 0x30 && first <= 0x39)) return false;
    const parts = s.split('.');
    if (parts[parts.length - 1] === '') {
      if (parts.length === 1) return false;
      parts.pop();
    }
    const last = parts[parts.length - 1];
    if (last !== '' && decimal.test(last)) return true;
    return parseIPv4Number(last) !== FAILURE;
  }
  function parseIPv4(s) {
    const parts = s.split('.');
    if (parts[parts.length - 1] === '' && parts.length > 1) parts.pop();
    if (parts.length > 4) return FAILURE;
    const numbers = [];
    for (const part of parts) {
      const n = parseIPv4Number(part);
      if (n === FAILURE) return FAILURE;
      numbers.push(n);
    }
    for (let i = 0; i < numbers.length - 1; i++) if (numbers[i] > 255) return FAILURE;
    const last = numbers[numbers.length - 1];
    if (last >= 256 ** (5 - numbers.length)) return FAILURE;
    let ipv4 = last;
    for (let i = 0; i < numbers.length - 1; i++) ipv4 += numbers[i] * 256 ** (3 - i);
    return (ipv4 >>> 24) + '.' + ((ipv4 >>> 16) & 255) + '.' + ((ipv4 >>> 8) & 255) + '.' + (ipv4 & 255);
  }
  function parseIPv6(s) {
    const address = [0, 0, 0, 0, 0, 0, 0, 0];
    let piece = 0, compress = null, p = 0;
    const at = (i) => (i < s.length ? s.charCodeAt(i) : EOF);
    const digit = (c) => c >= 0x30 && c <= 0x39;
    if (at(p) === 0x3a) {
      if (at(p + 1) !== 0x3a) return FAILURE;
      p += 2;
      compress = ++piece;
    }
    while (at(p) !== EOF) {
      if (piece === 8) return FAILURE;
      if (at(p) === 0x3a) {
        if (compress !== null) return FAILURE;
        p++;
        compress = ++piece;
        continue;
      }
      let value = 0, length = 0;
      while (length < 4 && hexValue(at(p)) >= 0) {
        value = value * 16 + hexValue(at(p));
        p++;
        length++;
      }
      if (at(p) === 0x2e) {
        if (length === 0) return FAILURE;
        p -= length;
        if (piece > 6) return FAILURE;
        let seen = 0;
        while (at(p) !== EOF) {
          let part = null;
          if (seen > 0) {
            if (at(p) === 0x2e && seen < 4) p++;
            else return FAILURE;
          }
          if (!digit(at(p))) return FAILURE;
          while (digit(at(p))) {
            const n = at(p) - 0x30;
            if (part === null) part = n;
            else if (part === 0) return FAILURE;
            else part = part * 10 + n;
            if (part > 255) return FAILURE;
            p++;
          }
          address[piece] = address[piece] * 0x100 + part;
          seen++;
          if (seen === 2 || seen === 4) piece++;
        }
        if (seen !== 4) return FAILURE;
        break;
      } else if (at(p) === 0x3a) {
        p++;
        if (at(p) === EOF) return FAILURE;
      } else if (at(p) !== EOF) return FAILURE;
      address[piece++] = value;
    }
    if (compress !== null) {
      let swaps = piece - compress;
      piece = 7;
      while (piece !== 0 && swaps > 0) {
        const t = address[piece];
        address[piece] = address[compress + swaps - 1];
        address[compress + swaps - 1] = t;
        piece--;
        swaps--;
      }
    } else if (piece !== 8) return FAILURE;
    return address;
  }
  function serializeIPv6(address) {
    let best = -1, bestLength = 1;
    for (let i = 0; i < 8;) {
      if (address[i] !== 0) {
        i++;
        continue;
      }
      let j = i;
      while (j < 8 && address[j] === 0) j++;
      if (j - i > bestLength) {
        best = i;
        bestLength = j - i;
      }
      i = j;
    }
    let out = '';
    let ignore0 = false;
    for (let i = 0; i < 8; i++) {
      if (ignore0 && address[i] === 0) continue;
      ignore0 = false;
      if (best === i) {
        out += i === 0 ? '::' : ':';
        ignore0 = true;
        continue;
      }
      out += address[i].toString(16);
      if (i !== 7) out += ':';
    }
    return out;
  }
  // UTS #46 ToASCII as the URL standard asks (non-transitional, no STD3 rules, no DNS lengths):
  // plain ASCII without xn-- labels is only lowercased; anything else goes to ICU (native).
  function domainToASCII(domain) {
    let result;
    if (!nonASCII.test(domain)) result = domain.toLowerCase();
    else {
      result = idnaCache.get(domain);
      if (result === undefined) {
        // A call into ICU costs microseconds; a program resolves the same few hosts again and again.
        result = native.domainToASCII(domain);
        if (idnaCache.size >= 256) idnaCache.clear();
        idnaCache.set(domain, result);
      }
      if (result === null) return FAILURE;
    }
    return result === '' ? FAILURE : result;
  }
  function parseHost(input, notSpecial) {
    if (input.charCodeAt(0) === 0x5b) {
      if (input.charCodeAt(input.length - 1) !== 0x5d) return FAILURE;
      const address = parseIPv6(input.slice(1, -1));
      return address === FAILURE ? FAILURE : '[' + serializeIPv6(address) + ']';
    }
    if (notSpecial) {
      if (forbiddenHost.test(input)) return FAILURE;
      return percentEncode(input, c0);
    }
    const domain = percentDecode(input);
    const ascii = domainToASCII(domain);
    if (ascii === FAILURE || forbiddenDomain.test(ascii)) return FAILURE;
    if (endsInANumber(ascii)) return parseIPv4(ascii);
    return ascii;
  }

  // Path helpers.
  const isAlpha = (c) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  const isSchemeChar = (c) => isAlpha(c) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e;
  const isDriveLetter = (s) => s.length === 2 && isAlpha(s.charCodeAt(0)) && (s[1] === ':' || s[1] === '|');
  const isNormalizedDriveLetter = (s) => s.length === 2 && isAlpha(s.charCodeAt(0)) && s[1] === ':';
  function startsWithDriveLetter(s, p) {
    if (s.length - p < 2 || !isDriveLetter(s.slice(p, p + 2))) return false;
    if (s.length - p === 2) return true;
    const c = s.charCodeAt(p + 2);
    return c === 0x2f || c === 0x5c || c === 0x3f || c === 0x23;
  }
  const singleDot = (s) => (s.length === 1 ? s === '.' : s.length === 3 && s.toLowerCase() === '%2e');
  const doubleDot = (s) => {
    if (s.length < 2 || s.length > 6) return false;
    const l = s.toLowerCase();
    return l === '..' || l === '.%2e' || l === '%2e.' || l === '%2e%2e';
  };
  function shortenPath(url) {
    const path = url.path;
    if (url.scheme === 'file' && path.length === 1 && isNormalizedDriveLetter(path[0])) return;
    path.pop();
  }
  const isSpecial = (url) => special.has(url.scheme);
  const hasOpaquePath = (url) => typeof url.path === 'string';

  // The basic URL parser. With `url` and `override` it modifies url (a setter); returns the URL
  // record, FAILURE, or (with an override) undefined for "return".
  // The common cases are read with one regular expression and finished here as the state
  // machine would finish them (lowercasing, IDNA, percent-encoding, dot segments, the default
  // port): an absolute special URL other than file: whose host is a domain (or a dotted IPv4
  // address) with no percent sign, and a path (absolute or relative, with its query and
  // fragment) against such a base. Anything else, and any input holding whitespace, a control
  // character or a backslash, goes through the state machine.
  const plain =
    // deno-lint-ignore no-control-regex
    /^(https?|wss?|ftp):\/\/(?:([^:@/\\?#\x00-\x20]*)(?::([^@/\\?#\x00-\x20]*))?@)?([A-Za-z0-9\u0080-\uffff-]+(?:\.[A-Za-z0-9\u0080-\uffff-]+)*)(?::([0-9]{1,5}))?(\/[^?#\\\x00-\x20]*)?(?:\?([^#\x00-\x20]*))?(?:#([^\x00-\x20]*))?$/i;
  const plainRelative =
    // deno-lint-ignore no-control-regex
    /^(\/(?!\/)[^?#\\\x00-\x20]*|[^?#\\\x00-\x20:/][^?#\\\x00-\x20:]*)(?:\?([^#\x00-\x20]*))?(?:#([^\x00-\x20]*))?$/;
  const needsPathEncoding = /[^\x21\x24-\x3b\x3d\x40-\x5d\x5f\x61-\x7a\x7c\x7e]/;
  // Appends the '/'-separated segments of `text`, from index `first`, to `path` as the path state does.
  function appendSegments(path, text, first) {
    const segments = text.split('/');
    const last = segments.length - 1;
    for (let i = first; i <= last; i++) {
      let segment = segments[i];
      if (needsPathEncoding.test(segment)) segment = percentEncode(segment, pathSet);
      if (segment.length <= 6 && (segment.charCodeAt(0) === 0x2e || segment.charCodeAt(0) === 0x25)) {
        if (doubleDot(segment)) {
          path.pop();
          if (i === last) path.push('');
          continue;
        }
        if (singleDot(segment)) {
          if (i === last) path.push('');
          continue;
        }
      }
      path.push(segment);
    }
    return path;
  }
  function parsePlain(input) {
    const m = plain.exec(input);
    if (!m) return null;
    const scheme = m[1].toLowerCase();
    let host = domainToASCII(m[4]);
    if (host === FAILURE || forbiddenDomain.test(host)) return null;
    if (endsInANumber(host)) {
      host = parseIPv4(host);
      if (host === FAILURE) return null;
    }
    let port = null;
    if (m[5] !== undefined) {
      port = parseInt(m[5], 10);
      if (port > 65535) return null;
      if (port === special.get(scheme)) port = null;
    }
    return {
      scheme,
      username: m[2] ? percentEncode(m[2], userinfoSet) : '',
      password: m[3] ? percentEncode(m[3], userinfoSet) : '',
      host,
      port,
      path: m[6] === undefined ? [''] : appendSegments([], m[6], 1),
      query: m[7] === undefined ? null : percentEncode(m[7], specialQuerySet),
      fragment: m[8] === undefined ? null : percentEncode(m[8], fragmentSet),
    };
  }
  function parseRelative(input, base) {
    if (base.scheme === 'file' || !special.has(base.scheme) || typeof base.path === 'string') return null;
    const m = plainRelative.exec(input);
    if (!m) return null;
    const text = m[1];
    const absolute = text.charCodeAt(0) === 0x2f;
    return {
      scheme: base.scheme,
      username: base.username,
      password: base.password,
      host: base.host,
      port: base.port,
      path: absolute ? appendSegments([], text, 1) : appendSegments(base.path.slice(0, -1), text, 0),
      query: m[2] === undefined ? null : percentEncode(m[2], specialQuerySet),
      fragment: m[3] === undefined ? null : percentEncode(m[3], fragmentSet),
    };
  }
  // The URL record of `input` against `base` (a record or null), or FAILURE.
  function parseURL(input, base) {
    return parsePlain(input) ?? (base === null ? null : parseRelative(input, base)) ?? parse(input, base);
  }

  function parse(input, base = null, url = null, override = null) {
    if (!url) {
      url = { scheme: '', username: '', password: '', host: null, port: null, path: [], query: null, fragment: null };
      if (input.charCodeAt(0) <= 0x20 || input.charCodeAt(input.length - 1) <= 0x20) {
        // deno-lint-ignore no-control-regex
        input = input.replace(/^[\x00-\x20]+|[\x00-\x20]+$/g, '');
      }
    }
    if (input.indexOf('\t') >= 0 || input.indexOf('\n') >= 0 || input.indexOf('\r') >= 0) {
      input = input.replace(/[\t\n\r]/g, '');
    }
    let state = override || SCHEME_START;
    let buffer = '';
    let atSign = false, insideBrackets = false, passwordToken = false;
    const len = input.length;
    for (let p = 0;; p++) {
      const c = p < len ? input.charCodeAt(p) : EOF;
      switch (state) {
        case SCHEME_START:
          if (isAlpha(c)) {
            buffer += input[p].toLowerCase();
            state = SCHEME;
          } else if (!override) {
            state = NO_SCHEME;
            p--;
          } else return FAILURE;
          break;
        case SCHEME:
          if (isSchemeChar(c)) {
            let end = p + 1;
            while (end < len && isSchemeChar(input.charCodeAt(end))) end++;
            buffer += input.slice(p, end).toLowerCase();
            p = end - 1;
          } else if (c === 0x3a) {
            if (override) {
              if (special.has(url.scheme) !== special.has(buffer)) return undefined;
              if ((url.username !== '' || url.password !== '' || url.port !== null) && buffer === 'file') {
                return undefined;
              }
              if (url.scheme === 'file' && url.host === '') return undefined;
            }
            url.scheme = buffer;
            if (override) {
              if (url.port === special.get(url.scheme)) url.port = null;
              return undefined;
            }
            buffer = '';
            if (url.scheme === 'file') state = FILE;
            else if (isSpecial(url) && base && base.scheme === url.scheme) state = SPECIAL_RELATIVE_OR_AUTHORITY;
            else if (isSpecial(url)) state = SPECIAL_AUTHORITY_SLASHES;
            else if (input.charCodeAt(p + 1) === 0x2f) {
              state = PATH_OR_AUTHORITY;
              p++;
            } else {
              url.path = '';
              state = OPAQUE_PATH;
            }
          } else if (!override) {
            buffer = '';
            state = NO_SCHEME;
            p = -1;
          } else return FAILURE;
          break;
        case NO_SCHEME:
          if (!base || (hasOpaquePath(base) && c !== 0x23)) return FAILURE;
          if (hasOpaquePath(base) && c === 0x23) {
            url.scheme = base.scheme;
            url.path = base.path;
            url.query = base.query;
            url.fragment = '';
            state = FRAGMENT;
          } else if (base.scheme !== 'file') {
            state = RELATIVE;
            p--;
          } else {
            state = FILE;
            p--;
          }
          break;
        case SPECIAL_RELATIVE_OR_AUTHORITY:
          if (c === 0x2f && input.charCodeAt(p + 1) === 0x2f) {
            state = SPECIAL_AUTHORITY_IGNORE_SLASHES;
            p++;
          } else {
            state = RELATIVE;
            p--;
          }
          break;
        case PATH_OR_AUTHORITY:
          if (c === 0x2f) state = AUTHORITY;
          else {
            state = PATH;
            p--;
          }
          break;
        case RELATIVE:
          url.scheme = base.scheme;
          if (c === 0x2f) state = RELATIVE_SLASH;
          else if (isSpecial(url) && c === 0x5c) state = RELATIVE_SLASH;
          else {
            url.username = base.username;
            url.password = base.password;
            url.host = base.host;
            url.port = base.port;
            url.path = base.path.slice();
            url.query = base.query;
            if (c === 0x3f) {
              url.query = '';
              state = QUERY;
            } else if (c === 0x23) {
              url.fragment = '';
              state = FRAGMENT;
            } else if (c !== EOF) {
              url.query = null;
              shortenPath(url);
              state = PATH;
              p--;
            }
          }
          break;
        case RELATIVE_SLASH:
          if (isSpecial(url) && (c === 0x2f || c === 0x5c)) state = SPECIAL_AUTHORITY_IGNORE_SLASHES;
          else if (c === 0x2f) state = AUTHORITY;
          else {
            url.username = base.username;
            url.password = base.password;
            url.host = base.host;
            url.port = base.port;
            state = PATH;
            p--;
          }
          break;
        case SPECIAL_AUTHORITY_SLASHES:
          if (c === 0x2f && input.charCodeAt(p + 1) === 0x2f) {
            state = SPECIAL_AUTHORITY_IGNORE_SLASHES;
            p++;
          } else {
            state = SPECIAL_AUTHORITY_IGNORE_SLASHES;
            p--;
          }
          break;
        case SPECIAL_AUTHORITY_IGNORE_SLASHES:
          if (c !== 0x2f && c !== 0x5c) {
            state = AUTHORITY;
            p--;
          }
          break;
        case AUTHORITY:
          if (c === 0x40) {
            if (atSign) buffer = '%40' + buffer;
            atSign = true;
            for (let i = 0; i < buffer.length; i++) {
              const b = buffer.charCodeAt(i);
              if (b === 0x3a && !passwordToken) {
                passwordToken = true;
                continue;
              }
              const [text, units] = b < 0x80 ? [userinfoSet(b) ? pct(b) : buffer[i], 1] : encodePoint(buffer, i);
              if (passwordToken) url.password += text;
              else url.username += text;
              i += units - 1;
            }
            buffer = '';
          } else if (c === EOF || c === 0x2f || c === 0x3f || c === 0x23 || (isSpecial(url) && c === 0x5c)) {
            if (atSign && buffer === '') return FAILURE;
            p -= buffer.length + 1;
            buffer = '';
            state = HOST;
          } else {
            let end = p + 1;
            for (; end < len; end++) {
              const d = input.charCodeAt(end);
              if (d === 0x40 || d === 0x2f || d === 0x3f || d === 0x23 || d === 0x5c) break;
            }
            buffer += input.slice(p, end);
            p = end - 1;
          }
          break;
        case HOST:
        case HOSTNAME:
          if (override && url.scheme === 'file') {
            p--;
            state = FILE_HOST;
          } else if (c === 0x3a && !insideBrackets) {
            if (buffer === '') return FAILURE;
            if (override === HOSTNAME) return undefined;
            const host = parseHost(buffer, !isSpecial(url));
            if (host === FAILURE) return FAILURE;
            url.host = host;
            buffer = '';
            state = PORT;
          } else if (c === EOF || c === 0x2f || c === 0x3f || c === 0x23 || (isSpecial(url) && c === 0x5c)) {
            p--;
            if (isSpecial(url) && buffer === '') return FAILURE;
            if (override && buffer === '' && (url.username !== '' || url.password !== '' || url.port !== null)) {
              return undefined;
            }
            const host = parseHost(buffer, !isSpecial(url));
            if (host === FAILURE) return FAILURE;
            url.host = host;
            buffer = '';
            state = PATH_START;
            if (override) return undefined;
          } else {
            if (c === 0x5b) insideBrackets = true;
            if (c === 0x5d) insideBrackets = false;
            let end = p + 1;
            for (; end < len; end++) {
              const d = input.charCodeAt(end);
              if (d === 0x3a || d === 0x2f || d === 0x3f || d === 0x23 || d === 0x5c || d === 0x5b || d === 0x5d) {
                break;
              }
            }
            buffer += input.slice(p, end);
            p = end - 1;
          }
          break;
        case PORT:
          if (c >= 0x30 && c <= 0x39) buffer += input[p];
          else if (
            c === EOF || c === 0x2f || c === 0x3f || c === 0x23 || (isSpecial(url) && c === 0x5c) || override
          ) {
            if (buffer !== '') {
              const port = parseInt(buffer, 10);
              if (port > 65535) return FAILURE;
              url.port = port === special.get(url.scheme) ? null : port;
              buffer = '';
              if (override) return undefined;
            }
            if (override) return FAILURE;
            state = PATH_START;
            p--;
          } else return FAILURE;
          break;
        case FILE:
          url.scheme = 'file';
          url.host = '';
          if (c === 0x2f || c === 0x5c) state = FILE_SLASH;
          else if (base && base.scheme === 'file') {
            url.host = base.host;
            url.path = base.path.slice();
            url.query = base.query;
            if (c === 0x3f) {
              url.query = '';
              state = QUERY;
            } else if (c === 0x23) {
              url.fragment = '';
              state = FRAGMENT;
            } else if (c !== EOF) {
              url.query = null;
              if (!startsWithDriveLetter(input, p)) shortenPath(url);
              else url.path = [];
              state = PATH;
              p--;
            }
          } else {
            state = PATH;
            p--;
          }
          break;
        case FILE_SLASH:
          if (c === 0x2f || c === 0x5c) state = FILE_HOST;
          else {
            if (base && base.scheme === 'file') {
              url.host = base.host;
              if (!startsWithDriveLetter(input, p) && base.path.length && isNormalizedDriveLetter(base.path[0])) {
                url.path.push(base.path[0]);
              }
            }
            state = PATH;
            p--;
          }
          break;
        case FILE_HOST:
          if (c === EOF || c === 0x2f || c === 0x5c || c === 0x3f || c === 0x23) {
            p--;
            if (!override && isDriveLetter(buffer)) state = PATH;
            else if (buffer === '') {
              url.host = '';
              if (override) return undefined;
              state = PATH_START;
            } else {
              let host = parseHost(buffer, false);
              if (host === FAILURE) return FAILURE;
              if (host === 'localhost') host = '';
              url.host = host;
              if (override) return undefined;
              buffer = '';
              state = PATH_START;
            }
          } else buffer += input[p];
          break;
        case PATH_START:
          if (isSpecial(url)) {
            state = PATH;
            if (c !== 0x2f && c !== 0x5c) p--;
          } else if (!override && c === 0x3f) {
            url.query = '';
            state = QUERY;
          } else if (!override && c === 0x23) {
            url.fragment = '';
            state = FRAGMENT;
          } else if (c !== EOF) {
            state = PATH;
            if (c !== 0x2f) p--;
          } else if (override && url.host === null) url.path.push('');
          break;
        case PATH:
          if (
            c === EOF || c === 0x2f || (isSpecial(url) && c === 0x5c) || (!override && (c === 0x3f || c === 0x23))
          ) {
            const slash = c === 0x2f || (isSpecial(url) && c === 0x5c);
            if (doubleDot(buffer)) {
              shortenPath(url);
              if (!slash) url.path.push('');
            } else if (singleDot(buffer) && !slash) url.path.push('');
            else if (!singleDot(buffer)) {
              if (url.scheme === 'file' && url.path.length === 0 && isDriveLetter(buffer)) {
                buffer = buffer[0] + ':';
              }
              url.path.push(buffer);
            }
            buffer = '';
            if (c === 0x3f) {
              url.query = '';
              state = QUERY;
            }
            if (c === 0x23) {
              url.fragment = '';
              state = FRAGMENT;
            }
          } else if (c < 0x80 && !pathSet(c)) {
            let end = p + 1;
            for (; end < len; end++) {
              const d = input.charCodeAt(end);
              if (d >= 0x80 || d === 0x2f || d === 0x5c || pathSet(d)) break;
            }
            buffer += input.slice(p, end);
            p = end - 1;
          } else if (c < 0x80) buffer += pct(c);
          else {
            const [text, units] = encodePoint(input, p);
            buffer += text;
            p += units - 1;
          }
          break;
        case OPAQUE_PATH:
          if (c === 0x3f) {
            url.query = '';
            state = QUERY;
          } else if (c === 0x23) {
            url.fragment = '';
            state = FRAGMENT;
          } else if (c === 0x20) {
            const next = input.charCodeAt(p + 1);
            url.path += next === 0x3f || next === 0x23 ? '%20' : ' ';
          } else if (c !== EOF) {
            if (c < 0x80) url.path += c0(c) ? pct(c) : input[p];
            else {
              const [text, units] = encodePoint(input, p);
              url.path += text;
              p += units - 1;
            }
          }
          break;
        case QUERY: {
          let end = p;
          while (end < len && (override || input.charCodeAt(end) !== 0x23)) end++;
          url.query += percentEncode(input.slice(p, end), isSpecial(url) ? specialQuerySet : querySet);
          p = end;
          if (p < len) {
            url.fragment = '';
            state = FRAGMENT;
          } else return override ? undefined : url;
          break;
        }
        case FRAGMENT:
          url.fragment += percentEncode(input.slice(p), fragmentSet);
          return override ? undefined : url;
      }
      if (p >= len) return override ? undefined : url;
    }
  }

  function serialize(url, excludeFragment = false) {
    let out = url.scheme + ':';
    if (url.host !== null) {
      out += '//';
      if (url.username !== '' || url.password !== '') {
        out += url.username;
        if (url.password !== '') out += ':' + url.password;
        out += '@';
      }
      out += url.host;
      if (url.port !== null) out += ':' + url.port;
    }
    if (hasOpaquePath(url)) out += url.path;
    else {
      if (url.host === null && url.path.length > 1 && url.path[0] === '') out += '/.';
      for (const segment of url.path) out += '/' + segment;
    }
    if (url.query !== null) out += '?' + url.query;
    if (!excludeFragment && url.fragment !== null) out += '#' + url.fragment;
    return out;
  }
  const pathText = (url) => (hasOpaquePath(url) ? url.path : url.path.map((s) => '/' + s).join(''));
  function origin(url) {
    switch (url.scheme) {
      case 'blob': {
        const inner = parse(pathText(url));
        return inner && (inner.scheme === 'http' || inner.scheme === 'https') ? origin(inner) : 'null';
      }
      case 'ftp':
      case 'http':
      case 'https':
      case 'ws':
      case 'wss':
        return url.scheme + '://' + url.host + (url.port !== null ? ':' + url.port : '');
      default:
        return 'null';
    }
  }
  function stripTrailingSpaces(url) {
    if (!hasOpaquePath(url) || url.fragment !== null || url.query !== null) return;
    url.path = url.path.replace(/ +$/, '');
  }

  return {
    FAILURE,
    FRAGMENT,
    HOST,
    HOSTNAME,
    PATH_START,
    PORT,
    QUERY,
    SCHEME_START,
    formSet,
    hasOpaquePath,
    origin,
    parse,
    parseURL,
    pathText,
    percentDecode,
    percentEncode,
    serialize,
    stripTrailingSpaces,
    userinfoSet,
  };
});
