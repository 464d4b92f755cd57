// A script for load() that imports an ES module by a path relative to itself.
globalThis.loadedImport = import('./values.mjs');
