// A CommonJS file that imports an ES module by a path relative to itself.
module.exports = import('./values.mjs');
