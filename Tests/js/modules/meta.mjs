export const url = import.meta.url;
export const resolved = import.meta.resolve('./values.mjs');
export const self = this;
export const strict = (function () {
  return this === undefined;
})();
