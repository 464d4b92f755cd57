/// Which backend serves the general pasteboard, decided from the run's environment.
///
/// `nbridge test` (headless) always uses the shared store. Otherwise
/// `NBRIDGE_PASTEBOARD_BACKEND` (`x11`, `wayland` or `shared`) decides when set; else X11
/// when `DISPLAY` is set (preferred when both are), Wayland when only `WAYLAND_DISPLAY` is,
/// and the shared store when neither is.
enum GeneralBackendChoice: Equatable, Sendable {
  /// The `CLIPBOARD` selection of this X display.
  case x11(display: String)
  /// The clipboard of this Wayland display, through `wl-copy`/`wl-paste` (experimental).
  case wayland(display: String)
  /// nbridge's store in the shared folder.
  case shared
  /// A configuration that cannot work; actions on the general pasteboard fail with this message.
  case misconfigured(String)

  /// The environment variable that forces a backend.
  static let overrideVariable = "NBRIDGE_PASTEBOARD_BACKEND"

  /// The backend for a run.
  static func choose(headless: Bool, environment: [String: String]) -> GeneralBackendChoice {
    if headless { return .shared }
    let display = environment["DISPLAY"].flatMap { $0.isEmpty ? nil : $0 }
    let wayland = environment["WAYLAND_DISPLAY"].flatMap { $0.isEmpty ? nil : $0 }
    switch environment[overrideVariable] {
    case nil, "": break
    case "shared": return .shared
    case "x11":
      return display.map { .x11(display: $0) } ?? .misconfigured("\(overrideVariable)=x11 but DISPLAY is not set")
    case "wayland":
      return wayland.map { .wayland(display: $0) }
        ?? .misconfigured("\(overrideVariable)=wayland but WAYLAND_DISPLAY is not set")
    case let other?:
      return .misconfigured("\(overrideVariable) must be x11, wayland or shared (got \"\(other)\")")
    }
    if let display { return .x11(display: display) }
    if let wayland { return .wayland(display: wayland) }
    return .shared
  }
}
