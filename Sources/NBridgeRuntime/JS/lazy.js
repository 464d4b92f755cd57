// Lazy globals: a web API a script never touches costs it nothing but a getter.
// internal.lazyGlobals(names, build) defines each name on the global as a configurable accessor;
// the first read of any of them calls build() once (it returns { name: value }) and replaces every
// accessor by a plain data property (writable, configurable, not enumerable: as the web's globals
// are). A name whose built value is undefined is deleted (it comes from the global's prototype).
// Assigning before the first read replaces the accessor without building. Returns the loader:
// call it to reach the built values from other prelude files; `loader.loaded` says whether it ran.
(function (global, internal) {
  'use strict';
  internal.lazyGlobals = function lazyGlobals(names, build) {
    let built;
    const accessors = {};
    function load() {
      if (built) return built;
      built = build();
      load.loaded = true;
      for (const name of names) {
        const current = Object.getOwnPropertyDescriptor(global, name);
        if (!current || current.get !== accessors[name].get) continue;
        if (built[name] === undefined) delete global[name];
        else Object.defineProperty(global, name, { value: built[name], writable: true, configurable: true });
      }
      return built;
    }
    load.loaded = false;
    for (const name of names) {
      accessors[name] = {
        get() {
          return load()[name] ?? global[name];
        },
        set(value) {
          Object.defineProperty(global, name, { value, writable: true, configurable: true });
        },
        configurable: true,
        enumerable: false,
      };
      Object.defineProperty(global, name, accessors[name]);
    }
    return load;
  };
});
