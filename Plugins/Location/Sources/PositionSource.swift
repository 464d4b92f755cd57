import NBridgePlugin

/// Where positions come from: GeoClue2, the Location portal, or the simulated source.
///
/// `LocationService` starts a source when its first caller comes and stops it when the last
/// goes, never twice at once; a source reports fixes and a lost backend through its `sink`.
@BridgeActor
protocol PositionSource: AnyObject {
  /// `geoclue`, `portal` or `simulated`: what `available()` names.
  var name: String { get }
  /// Starts fixes flowing to `sink` at `accuracy`; throws `unavailable` or `permission_denied`
  /// (a `BridgeError`) when the backend is missing or refuses.
  func start(accuracy: Accuracy, sink: PositionSink) async throws
  /// Asks a running source for finer fixes (a new caller wants more than the first did).
  func refine(to accuracy: Accuracy) async
  /// Stops the fixes; the source may be started again.
  func stop() async
  /// Lets go of the backend at the end of the run.
  func close() async
}

/// What a running source reports to.
struct PositionSink {
  /// A new fix.
  var position: @BridgeActor (Position) -> Void
  /// The backend went away or stopped answering; the source counts as stopped.
  var failure: @BridgeActor (BridgeError) -> Void
}
