/// Where background-fetch schedules wait for `nbridge daemon`: `$XDG_DATA_HOME/nbridge/fetch`
/// (`~/.local/share/nbridge/fetch`), one `<app id>.json` per app, and the daemon's `daemon.lock`.
package enum FetchWakeFolder {
  /// The folder for an environment (the run's, or the daemon's own).
  package static func path(environment: [String: String]) -> String {
    if let data = environment["XDG_DATA_HOME"], !data.isEmpty { return data + "/nbridge/fetch" }
    return (environment["HOME"] ?? "/tmp") + "/.local/share/nbridge/fetch"
  }

  /// `$XDG_STATE_HOME/nbridge` (`~/.local/state/nbridge`): where woken runs write their output.
  package static func logFolder(environment: [String: String]) -> String {
    if let state = environment["XDG_STATE_HOME"], !state.isEmpty { return state + "/nbridge" }
    return (environment["HOME"] ?? "/tmp") + "/.local/state/nbridge"
  }
}
