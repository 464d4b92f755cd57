import NBridgeRuntime
import NBridgeSystem

/// The XDG base folders `nbridge install` and `nbridge open` use (the variable, else the default under `$HOME`).
enum XDGPaths {
  static var home: String { ProcessEnvironment.value("HOME") ?? "/tmp" }
  /// `$XDG_DATA_HOME` (`~/.local/share`).
  static var dataHome: String { ProcessEnvironment.value("XDG_DATA_HOME") ?? home + "/.local/share" }
  /// `$XDG_CONFIG_HOME` (`~/.config`).
  static var configHome: String { ProcessEnvironment.value("XDG_CONFIG_HOME") ?? home + "/.config" }
  /// `$XDG_STATE_HOME` (`~/.local/state`).
  static var stateHome: String { ProcessEnvironment.value("XDG_STATE_HOME") ?? home + "/.local/state" }
  /// `$XDG_CACHE_HOME` (`~/.cache`).
  static var cacheHome: String { ProcessEnvironment.value("XDG_CACHE_HOME") ?? home + "/.cache" }
  /// Where `nbridge run` keeps compiled ES modules: `$NBRIDGE_MODULE_CACHE` if set (`off`: nowhere),
  /// else under `$XDG_CACHE_HOME`.
  static var moduleCache: String? {
    switch ProcessEnvironment.value("NBRIDGE_MODULE_CACHE") {
    case "off"?, "0"?: return nil
    case let path? where !path.isEmpty: return absolutePath(path)
    default: return cacheHome + "/nbridge/modules"
    }
  }
  /// Where installed apps' records are.
  static var installed: String { dataHome + "/nbridge/installed" }
  /// Where desktop entries go.
  static var applications: String { dataHome + "/applications" }
  /// The user's default handlers.
  static var mimeAppsList: String { configHome + "/mimeapps.list" }
  /// The log of an app launched by `nbridge open`.
  static func log(forApp id: String) -> String { stateHome + "/nbridge/" + id + ".log" }
}
