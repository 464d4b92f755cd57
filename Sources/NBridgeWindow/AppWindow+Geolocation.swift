import CWebKitGTK
import NBridgePlugin
import NBridgeRuntime

/// WebKit's own `navigator.geolocation` in the window: its permission request is answered by the
/// manifest's `location` permission, and its positions come from `nbridge.location`'s source
/// (GeoClue2 with the app's id, the Location portal in a sandbox, or the simulated source that
/// `NBRIDGE_LOCATION` sets), so a page's web API and `nbridge.location` agree. WebKit's own
/// GeoClue provider is never used.
extension AppWindow {
  static let locationPermission = "location"

  /// Connects the permission answer to `view` and the position provider to `context`.
  func answerGeolocation(context: UnsafeMutableRawPointer?, view: UnsafeMutableRawPointer?) {
    let me = Unmanaged.passUnretained(self).toOpaque()
    nbw_view_answer_geolocation(view, onGeolocationPermission, me)
    nbw_context_provide_geolocation(context, onGeolocationStart, onGeolocationStop, me)
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

  /// WebKit starts asking for positions (a page's `getCurrentPosition` or `watchPosition`, after
  /// its permission request was allowed): a `location.watch` of the window's own feeds them
  /// until WebKit stops; its failure (no GeoClue, refused) is the page's POSITION_UNAVAILABLE.
  func startGeolocation(manager: UnsafeMutableRawPointer?) {
    guard geolocationWatch == nil else { return }
    nonisolated(unsafe) let manager = manager
    geolocationWatch = runtime.startHostCall(
      "location", "watch", options: .object(JSONObject()),
      sink: { fix in
        guard let latitude = fix["latitude"]?.numberValue, let longitude = fix["longitude"]?.numberValue else { return }
        let unknown = Double.nan
        let seconds = (fix["timestamp"]?.numberValue).map { UInt64(max(0, $0) / 1000) } ?? 0
        nbw_geolocation_update(
          manager, latitude, longitude, fix["accuracy"]?.numberValue ?? 0, fix["altitude"]?.numberValue ?? unknown,
          fix["speed"]?.numberValue ?? unknown, fix["heading"]?.numberValue ?? unknown, seconds)
      },
      done: { [weak self] outcome in
        self?.geolocationWatch = nil
        // A watch ends with a failure only (nothing here clears it); WebKit hands the message on.
        if case .failure(let error) = outcome { nbw_geolocation_failed(manager, error.message) }
      })
  }

  /// No page asks for positions any more: the window's watch ends, and with it the source's
  /// session unless `nbridge.location` still uses it.
  func stopGeolocation() {
    geolocationWatch?.cancel()
    geolocationWatch = nil
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
private let onGeolocationStart: nbw_manager_cb = { manager, data in
  nonisolated(unsafe) let manager = manager
  withWindow(data) { $0.startGeolocation(manager: manager) }
}
private let onGeolocationStop: nbw_manager_cb = { _, data in
  withWindow(data) { $0.stopGeolocation() }
}
