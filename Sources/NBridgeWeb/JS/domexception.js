// DOMException (WebIDL): an Error with a name, and the legacy code that name maps to. A deferred
// file (web.js): evaluated on the first touch of the name, it returns it.
// Takes: nothing.
// Gives: its function's result: { DOMException }.
(function (_global, _internal) {
  'use strict';
  const names = [
    'IndexSizeError',
    'DOMStringSizeError',
    'HierarchyRequestError',
    'WrongDocumentError',
    'InvalidCharacterError',
    'NoDataAllowedError',
    'NoModificationAllowedError',
    'NotFoundError',
    'NotSupportedError',
    'InUseAttributeError',
    'InvalidStateError',
    'SyntaxError',
    'InvalidModificationError',
    'NamespaceError',
    'InvalidAccessError',
    'ValidationError',
    'TypeMismatchError',
    'SecurityError',
    'NetworkError',
    'AbortError',
    'URLMismatchError',
    'QuotaExceededError',
    'TimeoutError',
    'InvalidNodeTypeError',
    'DataCloneError',
  ];
  const constants = [
    'INDEX_SIZE_ERR',
    'DOMSTRING_SIZE_ERR',
    'HIERARCHY_REQUEST_ERR',
    'WRONG_DOCUMENT_ERR',
    'INVALID_CHARACTER_ERR',
    'NO_DATA_ALLOWED_ERR',
    'NO_MODIFICATION_ALLOWED_ERR',
    'NOT_FOUND_ERR',
    'NOT_SUPPORTED_ERR',
    'INUSE_ATTRIBUTE_ERR',
    'INVALID_STATE_ERR',
    'SYNTAX_ERR',
    'INVALID_MODIFICATION_ERR',
    'NAMESPACE_ERR',
    'INVALID_ACCESS_ERR',
    'VALIDATION_ERR',
    'TYPE_MISMATCH_ERR',
    'SECURITY_ERR',
    'NETWORK_ERR',
    'ABORT_ERR',
    'URL_MISMATCH_ERR',
    'QUOTA_EXCEEDED_ERR',
    'TIMEOUT_ERR',
    'INVALID_NODE_TYPE_ERR',
    'DATA_CLONE_ERR',
  ];
  const fields = new WeakMap();
  const fieldsOf = (self) => {
    const f = fields.get(self);
    if (!f) throw new TypeError('Illegal invocation: not a DOMException');
    return f;
  };
  class DOMException extends Error {
    constructor(message = '', name = 'Error') {
      super();
      fields.set(this, { message: String(message), name: String(name) });
    }
    get name() {
      return fieldsOf(this).name;
    }
    get message() {
      return fieldsOf(this).message;
    }
    get code() {
      const at = names.indexOf(fieldsOf(this).name);
      return at < 0 ? 0 : at + 1;
    }
  }
  for (const key of ['name', 'message', 'code']) {
    Object.defineProperty(DOMException.prototype, key, { enumerable: true });
  }
  constants.forEach((constant, i) => {
    Object.defineProperty(DOMException, constant, { value: i + 1, enumerable: true });
    Object.defineProperty(DOMException.prototype, constant, { value: i + 1, enumerable: true });
  });
  Object.defineProperty(DOMException.prototype, Symbol.toStringTag, { value: 'DOMException', configurable: true });
  return { DOMException };
});
