// Blob, File and FormData (the File API and XMLHttpRequest standards): immutable bytes with a
// type, a named file, and the form entries a request body encodes as multipart/form-data.
// Takes: internal.native.encodeUTF8, internal.native.decodeUTF8.
// Gives: exports.Blob, exports.File, exports.FormData; internal.blobBytes, internal.makeBlob,
//   internal.encodeFormData, internal.decodeUTF8 (fetch.js's bodies).
(function (_global, internal, exports) {
  'use strict';
  const native = internal.native;
  const bytesOf = new WeakMap(); // Blob -> Uint8Array (never handed out: readers get copies)
  const typeOf = new WeakMap();

  // A type is kept lower-cased when every character is printable ASCII, else it is ''.
  const normalizeType = (type) => (/^[\x20-\x7e]*$/.test(type) ? type.toLowerCase() : '');
  const utf8 = (text) => new Uint8Array(native.encodeUTF8(String(text)));

  function convertOptions(options, name) {
    if (options === undefined || options === null) return {};
    if (typeof options !== 'object' && typeof options !== 'function') {
      throw new TypeError(name + ': the options must be an object');
    }
    return options;
  }

  function partBytes(part, endings) {
    if (part instanceof Blob) return bytesOf.get(part);
    if (part instanceof ArrayBuffer) return new Uint8Array(part.slice(0));
    if (ArrayBuffer.isView(part)) {
      return new Uint8Array(part.buffer.slice(part.byteOffset, part.byteOffset + part.byteLength));
    }
    let text = String(part);
    if (endings === 'native') text = text.replace(/\r\n?/g, '\n');
    return utf8(text);
  }

  // WebIDL's sequence<BlobPart>: @@iterator read once, each element kept as a Blob or buffer
  // source, or converted to a string, in order.
  function convertParts(parts, name) {
    if (parts === undefined) return [];
    if ((typeof parts !== 'object' && typeof parts !== 'function') || parts === null) {
      throw new TypeError(name + ': the parts must be a sequence');
    }
    const method = parts[Symbol.iterator];
    if (typeof method !== 'function') throw new TypeError(name + ': the parts must be iterable');
    const iterator = method.call(parts);
    const converted = [];
    for (;;) {
      const step = iterator.next();
      if (step.done) return converted;
      const part = step.value;
      const keep = part instanceof Blob || part instanceof ArrayBuffer || ArrayBuffer.isView(part);
      converted.push(keep ? part : String(part));
    }
  }

  function joinParts(parts, endings) {
    const chunks = [];
    let size = 0;
    for (const part of parts) {
      const bytes = partBytes(part, endings);
      chunks.push(bytes);
      size += bytes.length;
    }
    if (chunks.length === 1) return chunks[0];
    const all = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      all.set(chunk, offset);
      offset += chunk.length;
    }
    return all;
  }

  function readEndings(options, name) {
    const endings = options.endings === undefined ? 'transparent' : String(options.endings);
    if (endings !== 'transparent' && endings !== 'native') {
      throw new TypeError(name + ": endings must be 'transparent' or 'native', not '" + endings + "'");
    }
    return endings;
  }

  function checkBlob(blob, what) {
    if (!bytesOf.has(blob)) throw new TypeError('Blob.' + what + ': the receiver is not a Blob');
    return bytesOf.get(blob);
  }

  // The Blob's bytes, for fetch bodies.
  internal.blobBytes = (blob) => bytesOf.get(blob);
  // A Blob over bytes the caller hands over (not copied), with a type.
  internal.makeBlob = (bytes, type) => {
    const blob = Object.create(Blob.prototype);
    bytesOf.set(blob, bytes);
    typeOf.set(blob, normalizeType(String(type)));
    return blob;
  };
  internal.decodeUTF8 = (bytes) => native.decodeUTF8(bytes);

  class Blob {
    constructor(blobParts = undefined, options = undefined) {
      // Arguments convert left to right; dictionary members in alphabetical order (WebIDL).
      const parts = convertParts(blobParts, 'Blob');
      options = convertOptions(options, 'Blob');
      const endings = readEndings(options, 'Blob');
      const type = options.type === undefined ? '' : String(options.type);
      bytesOf.set(this, joinParts(parts, endings));
      typeOf.set(this, normalizeType(type));
    }
    get size() {
      return checkBlob(this, 'size').length;
    }
    get type() {
      checkBlob(this, 'type');
      return typeOf.get(this);
    }
    slice(start = undefined, end = undefined, contentType = undefined) {
      const bytes = checkBlob(this, 'slice');
      const size = bytes.length;
      const clamp = (value, fallback) => {
        if (value === undefined) return fallback;
        let n = Math.trunc(Number(value)) || 0;
        if (n < 0) n = Math.max(size + n, 0);
        return Math.min(n, size);
      };
      const from = clamp(start, 0);
      const to = clamp(end, size);
      const type = contentType === undefined ? '' : normalizeType(String(contentType));
      return internal.makeBlob(bytes.subarray(from, Math.max(from, to)), type);
    }
    text() {
      try {
        return Promise.resolve(native.decodeUTF8(checkBlob(this, 'text')));
      } catch (e) {
        return Promise.reject(e);
      }
    }
    arrayBuffer() {
      try {
        return Promise.resolve(checkBlob(this, 'arrayBuffer').slice().buffer);
      } catch (e) {
        return Promise.reject(e);
      }
    }
    bytes() {
      try {
        return Promise.resolve(checkBlob(this, 'bytes').slice());
      } catch (e) {
        return Promise.reject(e);
      }
    }
  }
  Object.defineProperty(Blob.prototype, Symbol.toStringTag, { value: 'Blob', configurable: true });

  const fileInfo = new WeakMap();
  class File extends Blob {
    constructor(fileBits, fileName, options = undefined) {
      if (arguments.length < 2) {
        throw new TypeError('File: 2 arguments required, but only ' + arguments.length + ' present');
      }
      options = convertOptions(options, 'File');
      const endings = readEndings(options, 'File');
      const lastModified = options.lastModified === undefined
        ? Date.now()
        : Math.trunc(Number(options.lastModified)) || 0;
      const type = options.type === undefined ? '' : String(options.type);
      super(fileBits, { endings, type });
      fileInfo.set(this, { name: fileName, lastModified });
    }
    get name() {
      if (!fileInfo.has(this)) throw new TypeError('File.name: the receiver is not a File');
      return fileInfo.get(this).name;
    }
    get lastModified() {
      if (!fileInfo.has(this)) throw new TypeError('File.lastModified: the receiver is not a File');
      return fileInfo.get(this).lastModified;
    }
    get webkitRelativePath() {
      return '';
    }
  }
  Object.defineProperty(File.prototype, Symbol.toStringTag, { value: 'File', configurable: true });

  // ------------------------------------------------------------------ FormData
  const entriesOf = new WeakMap();
  function formEntry(name, value, filename, argc, method) {
    if (argc < 2) throw new TypeError('FormData.' + method + ': 2 arguments required, but only ' + argc + ' present');
    name = String(name);
    if (value instanceof Blob) {
      if (!(value instanceof File) || filename !== undefined) {
        const f = value;
        value = new File(
          [f],
          filename === undefined ? (value instanceof File ? value.name : 'blob') : String(filename),
          {
            type: f.type,
            lastModified: f instanceof File ? f.lastModified : undefined,
          },
        );
      }
    } else {
      if (argc > 2) throw new TypeError('FormData.' + method + ': a filename needs a Blob value');
      value = String(value);
    }
    return [name, value];
  }
  function formEntries(form, method) {
    if (!entriesOf.has(form)) throw new TypeError('FormData.' + method + ': the receiver is not a FormData');
    return entriesOf.get(form);
  }

  class FormData {
    constructor(form = undefined, submitter = undefined) {
      if (form !== undefined || submitter !== undefined) {
        throw new TypeError('FormData: there is no form element in a headless run');
      }
      entriesOf.set(this, []);
    }
    append(name, value, filename = undefined) {
      formEntries(this, 'append').push(formEntry(name, value, filename, arguments.length, 'append'));
    }
    delete(name) {
      const entries = formEntries(this, 'delete');
      name = String(name);
      entriesOf.set(this, entries.filter((e) => e[0] !== name));
    }
    get(name) {
      const found = formEntries(this, 'get').find((e) => e[0] === String(name));
      return found ? found[1] : null;
    }
    getAll(name) {
      name = String(name);
      return formEntries(this, 'getAll').filter((e) => e[0] === name).map((e) => e[1]);
    }
    has(name) {
      return formEntries(this, 'has').some((e) => e[0] === String(name));
    }
    set(name, value, filename = undefined) {
      const entries = formEntries(this, 'set');
      const entry = formEntry(name, value, filename, arguments.length, 'set');
      const index = entries.findIndex((e) => e[0] === entry[0]);
      if (index < 0) {
        entries.push(entry);
      } else {
        entries[index] = entry;
        entriesOf.set(this, entries.filter((e, i) => i <= index || e[0] !== entry[0]));
      }
    }
    forEach(callback, thisArg = undefined) {
      if (typeof callback !== 'function') throw new TypeError('FormData.forEach: the callback must be a function');
      for (const [name, value] of this) callback.call(thisArg, value, name, this);
    }
    *entries() {
      formEntries(this, 'entries');
      for (let i = 0; i < entriesOf.get(this).length; i++) {
        const entry = entriesOf.get(this)[i];
        yield [entry[0], entry[1]];
      }
    }
    *keys() {
      for (const [name] of this.entries()) yield name;
    }
    *values() {
      for (const [, value] of this.entries()) yield value;
    }
    [Symbol.iterator]() {
      return this.entries();
    }
  }
  Object.defineProperty(FormData.prototype, Symbol.toStringTag, { value: 'FormData', configurable: true });

  // multipart/form-data (HTML's encoding algorithm): the body's bytes and its boundary.
  internal.encodeFormData = (form) => {
    const boundary = '----nbridge' + Math.random().toString(16).slice(2) + Math.random().toString(16).slice(2);
    const escape = (s) => s.replace(/\n/g, '%0A').replace(/\r/g, '%0D').replace(/"/g, '%22');
    const crlf = (s) => s.replace(/\r\n|\r|\n/g, '\r\n');
    const chunks = [];
    for (const [name, value] of formEntries(form, 'encode')) {
      let head = '--' + boundary + '\r\nContent-Disposition: form-data; name="' + escape(crlf(name)) + '"';
      if (typeof value === 'string') {
        chunks.push(utf8(head + '\r\n\r\n' + crlf(value) + '\r\n'));
      } else {
        head += '; filename="' + escape(value.name) + '"\r\nContent-Type: ' +
          (value.type || 'application/octet-stream');
        chunks.push(utf8(head + '\r\n\r\n'), bytesOf.get(value), utf8('\r\n'));
      }
    }
    // An empty form is an empty body, as browsers send it.
    if (chunks.length) chunks.push(utf8('--' + boundary + '--\r\n'));
    return { bytes: joinParts(chunks, 'transparent'), boundary };
  };

  exports.Blob = Blob;
  exports.File = File;
  exports.FormData = FormData;
});
