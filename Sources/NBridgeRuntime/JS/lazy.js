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
    // Each name's getter, by index (an array, not an object keyed by name, and no `enumerable`,
    // false by default: about 1.5 k instructions less a name at every start, callgrind).
    const getters = [];
    function load() {
      if (built) return built;
      built = build();
      load.loaded = true;
      for (let i = 0; i < names.length; i++) {
        const name = names[i];
        const current = Object.getOwnPropertyDescriptor(global, name);
        if (!current || current.get !== getters[i]) continue;
        if (built[name] === undefined) delete global[name];
        else Object.defineProperty(global, name, { value: built[name], writable: true, configurable: true });
      }
      return built;
    }
    load.loaded = false;
    for (let i = 0; i < names.length; i++) {
      const name = names[i];
      const get = function () {
        return load()[name] ?? global[name];
      };
      getters.push(get);
      Object.defineProperty(global, name, {
        get,
        set(value) {
          Object.defineProperty(global, name, { value, writable: true, configurable: true });
        },
        configurable: true,
      });
    }
    return load;
  };
});
