// navigator: the user agent (nbridge/<version>), the locale's language, the CPU count, onLine.
// Takes: internal.native.systemInfo, internal.version.
// Gives: its function's result: { Navigator, navigator }.
(function (_global, internal) {
  'use strict';
  function build() {
    const info = internal.native.systemInfo();
    // LANG=de_DE.UTF-8 → de-DE; C/POSIX or unset → en-US (what a page reports with no preference).
    const locale = info.locale.split(/[.@]/)[0].replace(/_/g, '-');
    const language = locale && locale !== 'C' && locale !== 'POSIX' ? locale : 'en-US';
    const languages = Object.freeze([language]);
    let constructing = true;
    class Navigator {
      constructor() {
        if (!constructing) throw new TypeError('Illegal constructor');
      }
      get userAgent() {
        return 'nbridge/' + internal.version;
      }
      get language() {
        return language;
      }
      get languages() {
        return languages;
      }
      get hardwareConcurrency() {
        return info.cpus;
      }
      get onLine() {
        return true;
      }
    }
    Object.defineProperty(Navigator.prototype, Symbol.toStringTag, { value: 'Navigator', configurable: true });
    const navigator = new Navigator();
    constructing = false;
    return { Navigator, navigator };
  }
  return build();
});
