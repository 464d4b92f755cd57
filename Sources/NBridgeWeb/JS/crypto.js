// crypto: getRandomValues, randomUUID and subtle.digest (SHA-1/256/384/512) over a native floor
// (getrandom(2), GLib's GChecksum). Other SubtleCrypto methods reject with NotSupportedError.
// Takes: internal.native.randomFill, internal.native.digest; DOMException (global).
// Gives: its function's result: { Crypto, SubtleCrypto, crypto }.
(function (_global, internal) {
  'use strict';
  const native = internal.native;
  function build() {
    const integerArrays = [
      'Int8Array',
      'Uint8Array',
      'Uint8ClampedArray',
      'Int16Array',
      'Uint16Array',
      'Int32Array',
      'Uint32Array',
      'BigInt64Array',
      'BigUint64Array',
    ];
    const digests = { 'SHA-1': [0, 20], 'SHA-256': [1, 32], 'SHA-384': [2, 48], 'SHA-512': [3, 64] };
    let constructing = true;
    const illegal = () => {
      if (!constructing) throw new TypeError('Illegal constructor');
    };

    function bytesOf(data) {
      if (ArrayBuffer.isView(data)) {
        // A detached (transferred) buffer reads as empty.
        return data.byteLength ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(0);
      }
      const tag = Object.prototype.toString.call(data);
      if (tag === '[object ArrayBuffer]' || tag === '[object SharedArrayBuffer]') return new Uint8Array(data);
      throw new TypeError("Failed to execute 'digest': the data is not an ArrayBuffer or ArrayBufferView");
    }

    class SubtleCrypto {
      constructor() {
        illegal();
      }
      digest(algorithm, data) {
        try {
          if (arguments.length < 2) throw new TypeError("Failed to execute 'digest': 2 arguments required");
          let name = algorithm;
          if (algorithm !== null && typeof algorithm === 'object') {
            name = algorithm.name;
            if (name === undefined) throw new TypeError("Failed to execute 'digest': the algorithm has no name");
          }
          const upper = String(name).replace(/[a-z]/g, (c) => c.toUpperCase());
          const input = bytesOf(data).slice();
          const kind = digests[upper];
          if (!kind) throw new DOMException("Unrecognized algorithm name: '" + String(name) + "'", 'NotSupportedError');
          const output = new Uint8Array(kind[1]);
          if (!native.digest(kind[0], input, output)) throw new DOMException('The digest failed', 'OperationError');
          return Promise.resolve(output.buffer);
        } catch (error) {
          return Promise.reject(error);
        }
      }
    }
    for (
      const method of [
        'encrypt',
        'decrypt',
        'sign',
        'verify',
        'generateKey',
        'deriveKey',
        'deriveBits',
        'importKey',
        'exportKey',
        'wrapKey',
        'unwrapKey',
      ]
    ) {
      Object.defineProperty(SubtleCrypto.prototype, method, {
        value: function () {
          return Promise.reject(new DOMException('crypto.subtle.' + method + ' is not supported', 'NotSupportedError'));
        },
        writable: true,
        configurable: true,
      });
    }
    Object.defineProperty(SubtleCrypto.prototype, Symbol.toStringTag, { value: 'SubtleCrypto', configurable: true });
    const subtle = new SubtleCrypto();

    class Crypto {
      constructor() {
        illegal();
      }
      get subtle() {
        return subtle;
      }
      getRandomValues(array) {
        if (arguments.length === 0) throw new TypeError("Failed to execute 'getRandomValues': 1 argument required");
        if (!ArrayBuffer.isView(array) || !integerArrays.includes(Object.prototype.toString.call(array).slice(8, -1))) {
          throw new DOMException(
            "Failed to execute 'getRandomValues': the array is not an integer typed array",
            'TypeMismatchError',
          );
        }
        if (array.byteLength > 65536) {
          // WebIDL's QuotaExceededError (a DOMException subclass); getRandomValues sets neither quota nor requested.
          throw new QuotaExceededError("Failed to execute 'getRandomValues': the array is longer than 65536 bytes");
        }
        native.randomFill(array);
        return array;
      }
      randomUUID() {
        const b = new Uint8Array(16);
        native.randomFill(b);
        b[6] = (b[6] & 0x0f) | 0x40;
        b[8] = (b[8] & 0x3f) | 0x80;
        let hex = '';
        for (let i = 0; i < 16; i++) {
          hex += (b[i] < 16 ? '0' : '') + b[i].toString(16);
          if (i === 3 || i === 5 || i === 7 || i === 9) hex += '-';
        }
        return hex;
      }
    }
    Object.defineProperty(Crypto.prototype, Symbol.toStringTag, { value: 'Crypto', configurable: true });
    const crypto = new Crypto();
    constructing = false;
    return { Crypto, SubtleCrypto, crypto };
  }
  return build();
});
