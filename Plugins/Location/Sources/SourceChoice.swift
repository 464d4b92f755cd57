import NBridgePlugin
import NBridgeSystem

/// Which position source a run uses.
enum SourceChoice {
  /// `nbridge test` (headless) and any run with `NBRIDGE_LOCATION` set: the simulated source;
  /// inside a Flatpak sandbox (`/.flatpak-info`): the Location portal; else GeoClue2 on the
  /// system bus (`DBUS_SYSTEM_BUS_ADDRESS`, or the usual socket).
  @BridgeActor
  static func make(for context: PluginContext) -> any PositionSource {
    let clock: @BridgeActor () -> Double = { [unowned context] in Double(context.wallClockMilliseconds) }
    let environment = context.environment
    if context.headless || environment["NBRIDGE_LOCATION"] != nil {
      return SimulatedSource(setting: environment["NBRIDGE_LOCATION"], clock: clock)
    }
    if POSIX.readText("/.flatpak-info") != nil {
      return LocationPortalSource(
        address: environment["DBUS_SESSION_BUS_ADDRESS"], mainContext: context.glibMainContext, clock: clock)
    }
    let system =
      environment["DBUS_SYSTEM_BUS_ADDRESS"].flatMap { $0.isEmpty ? nil : $0 } ?? GeoClueSource.defaultAddress
    return GeoClueSource(
      address: system, desktopID: context.manifest.id, mainContext: context.glibMainContext, clock: clock)
  }
}
