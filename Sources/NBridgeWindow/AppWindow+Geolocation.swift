import CWebKitGTK
import NBridgePlugin
import NBridgeRuntime

/// WebKit's own `navigator.geolocation` in the window: its permission request is answered by the
/// manifest's `location` permission, and with `NBRIDGE_LOCATION` set the positions it asks for
/// are that fixed fix (as `nbridge.location`'s simulated source gives); without it WebKit asks
/// GeoClue itself.
extension AppWindow {
  static let locationPermission = "location"
  static let simulatedLocationVariable = "NBRIDGE_LOCATION"

  /// Connects the permission answer to `view` and the position provider to `context`.
  func answerGeolocation(context: UnsafeMutableRawPointer?, view: UnsafeMutableRawPointer?) {
    let me = Unmanaged.passUnretained(self).toOpaque()
    nbw_view_answer_geolocation(view, onGeolocationPermission, me)
    nbw_context_provide_geolocation(context, onGeolocationStart, me)
  }

  /// Whether the page shown now may learn the position: the app's own page when the app has
  /// `location`; a listed remote origin when it also lists `location`; any other page never.
  func mayLocate() -> Bool {
    guard allowsLocation, let uri = view.flatMap({ nbw_view_uri($0) }).map({ String(cString: $0) }) else {
      return false
    }
    let shown = Self.origin(of: uri)
    if shown == origin { return true }
    return remotePages.contains { $0.origin == shown && $0.permissions.contains(Self.locationPermission) }
  }

  /// WebKit starts asking for positions: with `NBRIDGE_LOCATION` set, its fix (or why it cannot
  /// be used) on the next turn of the loop; false leaves it to WebKit's GeoClue provider.
  func startGeolocation(manager: UnsafeMutableRawPointer?) -> Bool {
    guard let setting = ProcessEnvironment.value(Self.simulatedLocationVariable) else { return false }
    nonisolated(unsafe) let manager = manager
    _ = runtime.addTimer(after: .zero, repeating: nil) {
      switch SimulatedFix(setting) {
      case .some(let fix): nbw_geolocation_update(manager, fix.latitude, fix.longitude, fix.accuracy)
      case .none:
        nbw_geolocation_failed(
          manager, "\(Self.simulatedLocationVariable) must be 'latitude,longitude' or 'latitude,longitude,accuracy'")
      }
    }
    return true
  }
}

/// A fix written `latitude,longitude[,accuracy]` (metres; 0 when not given, since WebKit's
/// position needs a number); nil when it is not one.
struct SimulatedFix {
  let latitude: Double
  let longitude: Double
  let accuracy: Double

  init?(_ setting: String) {
    let parts = setting.split(separator: ",", omittingEmptySubsequences: false).map {
      Double($0.filter { !$0.isWhitespace })
    }
    guard (2...3).contains(parts.count), let latitude = parts[0], let longitude = parts[1],
      (-90...90).contains(latitude), (-180...180).contains(longitude)
    else { return nil }
    let accuracy = parts.count == 3 ? parts[2] : 0
    guard let accuracy, accuracy >= 0, accuracy.isFinite else { return nil }
    (self.latitude, self.longitude, self.accuracy) = (latitude, longitude, accuracy)
  }
}

/// Runs `body` with the window behind `data`, on the loop thread the callback came on.
private func withWindow<T: Sendable>(_ data: UnsafeMutableRawPointer?, _ body: @BridgeActor (AppWindow) -> T) -> T {
  nonisolated(unsafe) let data = data
  return BridgeActor.assumeIsolated { body(Unmanaged<AppWindow>.fromOpaque(data!).takeUnretainedValue()) }
}

private let onGeolocationPermission: nbw_decide_cb = { data in
  withWindow(data) { $0.mayLocate() ? 1 : 0 }
}
private let onGeolocationStart: nbw_provider_cb = { manager, data in
  nonisolated(unsafe) let manager = manager
  return withWindow(data) { $0.startGeolocation(manager: manager) ? 1 : 0 }
}
