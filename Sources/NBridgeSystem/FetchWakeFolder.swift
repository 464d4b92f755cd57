/// Where background-fetch schedules wait for `nbridge daemon`: `$XDG_DATA_HOME/nbridge/fetch`
/// (`~/.local/share/nbridge/fetch`), one `<app id>.json` per app, and the daemon's `daemon.lock`;
/// and where the systemd user timer that wakes an app instead lives (`nbridge-fetch-<id>`).
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

  /// `$XDG_CONFIG_HOME/systemd/user` (`~/.config/systemd/user`): the fetch timers' units.
  package static func systemdFolder(environment: [String: String]) -> String {
    let config = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
      ?? (environment["HOME"] ?? "/tmp") + "/.config"
    return config + "/systemd/user"
  }

  /// `nbridge-fetch-<id>`: the name of the app's `.timer` and `.service` units.
  package static func systemdUnit(appID: String) -> String { "nbridge-fetch-\(appID)" }
}
