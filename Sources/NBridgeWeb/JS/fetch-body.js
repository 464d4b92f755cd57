// The bodies of requests and responses (the Fetch standard's Body mixin): what a body may be
// made from (strings, bytes, Blob, FormData, URLSearchParams), and arrayBuffer(), bytes(),
// blob(), formData(), json() and text() reading it once.
// Takes: internal.loadWeb('blob') (Blob, File, FormData; internal.blobBytes, makeBlob,
//   encodeFormData), internal.native.encodeUTF8 and decodeUTF8.
// Gives (exports, for fetch-request.js and fetch.js): utf8, extractBody, bodyMixin.
(function (global, internal, exports) {
  'use strict';
  const native = internal.native;
  const { Blob, File, FormData } = internal.loadWeb('blob');
  const { blobBytes, makeBlob, encodeFormData } = internal;
  const utf8 = (text) => new Uint8Array(native.encodeUTF8(String(text)));
  const decode = (bytes) => native.decodeUTF8(bytes);

  // A body is { source, type } where source is a Uint8Array or a Promise of one (a response
  // still arriving, with `pull` to read it: until then only a bounded read-ahead is read);
  // `used` is kept on the owner's state.
  function extractBody(object) {
    if (object instanceof Blob) {
      return { source: blobBytes(object), type: object.type || null };
    }
    if (object instanceof ArrayBuffer) return { source: new Uint8Array(object.slice(0)), type: null };
    if (ArrayBuffer.isView(object)) {
      return {
        source: new Uint8Array(object.buffer.slice(object.byteOffset, object.byteOffset + object.byteLength)),
        type: null,
      };
    }
    if (object instanceof FormData) {
      const { bytes, boundary } = encodeFormData(object);
      return { source: bytes, type: 'multipart/form-data; boundary=' + boundary };
    }
    if (typeof global.URLSearchParams === 'function' && object instanceof global.URLSearchParams) {
      return { source: utf8(object.toString()), type: 'application/x-www-form-urlencoded;charset=UTF-8' };
    }
    if (typeof global.ReadableStream === 'function' && object instanceof global.ReadableStream) {
      throw new TypeError('ReadableStream bodies are not supported in a headless run');
    }
    return { source: utf8(object), type: 'text/plain;charset=UTF-8' };
  }

  // The Body mixin's methods, reading the owner's state through `stateOf`.
  function bodyMixin(proto, stateOf, what) {
    function consume(self, method) {
      let s;
      try {
        s = stateOf(self, method);
      } catch (e) {
        return Promise.reject(e);
      }
      if (s.bodyUsed) return Promise.reject(new TypeError(what + '.' + method + ': the body has already been read'));
      if (s.body === null) return Promise.resolve(new Uint8Array(0));
      s.bodyUsed = true;
      if (s.body.pull) s.body.pull();
      return Promise.resolve(s.body.source);
    }
    const methods = {
      arrayBuffer() {
        return consume(this, 'arrayBuffer').then((bytes) => bytes.slice().buffer);
      },
      bytes() {
        return consume(this, 'bytes').then((bytes) => bytes.slice());
      },
      blob() {
        const type = (() => {
          try {
            return stateOf(this, 'blob').headers.get('content-type') || '';
          } catch {
            return '';
          }
        })();
        return consume(this, 'blob').then((bytes) => makeBlob(bytes, type));
      },
      text() {
        return consume(this, 'text').then(decode);
      },
      json() {
        return consume(this, 'json').then((bytes) => JSON.parse(decode(bytes)));
      },
      formData() {
        let type = '';
        try {
          type = stateOf(this, 'formData').headers.get('content-type') || '';
        } catch {
          // consume rejects for the receiver below
        }
        return consume(this, 'formData').then((bytes) => parseFormData(bytes, type));
      },
    };
    for (const name of Object.keys(methods)) {
      Object.defineProperty(proto, name, {
        value: methods[name],
        writable: true,
        configurable: true,
        enumerable: true,
      });
    }
    Object.defineProperty(proto, 'bodyUsed', {
      get() {
        return stateOf(this, 'bodyUsed').bodyUsed;
      },
      configurable: true,
      enumerable: true,
    });
    Object.defineProperty(proto, 'body', {
      get() {
        return stateOf(this, 'body').body === null ? null : undefined;
      },
      configurable: true,
      enumerable: true,
    });
  }

  function parseFormData(bytes, type) {
    const form = new FormData();
    const essence = type.split(';')[0].trim().toLowerCase();
    if (essence === 'application/x-www-form-urlencoded') {
      // The URL standard's form parser, as URLSearchParams has it, over the body decoded as
      // UTF-8 with a leading BOM kept (it is part of the first name).
      const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
      for (const [name, value] of new global.URLSearchParams(text)) form.append(name, value);
      return form;
    }
    if (essence === 'multipart/form-data') {
      const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(type);
      if (!m) throw new TypeError('formData: the multipart body has no boundary');
      const boundary = '--' + (m[1] || m[2]);
      // Bytes as Latin-1 text, so offsets stay byte offsets.
      let latin = '';
      for (let i = 0; i < bytes.length; i += 8192) {
        latin += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192));
      }
      const parts = latin.split(boundary);
      if (parts.length < 2) throw new TypeError('formData: the multipart body is malformed');
      for (let i = 1; i < parts.length; i++) {
        let part = parts[i];
        if (part.startsWith('--')) break;
        part = part.replace(/^\r\n/, '').replace(/\r\n$/, '');
        const split = part.indexOf('\r\n\r\n');
        if (split < 0) throw new TypeError('formData: a multipart part has no header end');
        const head = part.slice(0, split);
        const body = part.slice(split + 4);
        const disposition = /content-disposition:[^\r\n]*?name="([^"]*)"/i.exec(head);
        if (!disposition) throw new TypeError('formData: a multipart part has no name');
        const filename = /filename="([^"]*)"/i.exec(head);
        const partType = /content-type:\s*([^\r\n]*)/i.exec(head);
        const raw = Uint8Array.from(body, (c) => c.charCodeAt(0));
        const name = decode(Uint8Array.from(disposition[1], (c) => c.charCodeAt(0)));
        if (filename) {
          const file = new File([raw], decode(Uint8Array.from(filename[1], (c) => c.charCodeAt(0))), {
            type: partType ? partType[1] : '',
          });
          form.append(name, file);
        } else {
          form.append(name, decode(raw));
        }
      }
      return form;
    }
    throw new TypeError('formData: the content type "' + type + '" is not a form');
  }

  Object.assign(exports, {
    utf8,
    extractBody,
    bodyMixin,
  });
});
