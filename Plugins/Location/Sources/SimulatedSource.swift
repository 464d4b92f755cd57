import NBridgePlugin

/// The position source of `nbridge test` (and of any run with `NBRIDGE_LOCATION` set): a fixed
/// fix that `NBRIDGE_LOCATION=latitude,longitude[,accuracy]` gives and `location.simulate` moves.
/// Without either, there is no position and calls reject `unavailable`.
@BridgeActor
final class SimulatedSource: PositionSource {
  let name = "simulated"
  private var position: Position?
  /// Why `NBRIDGE_LOCATION` could not be used, reported by every start.
  private var problem: String?
  private var sink: PositionSink?
  /// Counts starts and stops, so a fix reported for one session never reaches the next.
  private var session = 0
  private let clock: @BridgeActor () -> Double

  /// A source at `setting` (the `NBRIDGE_LOCATION` value, if any); `clock` gives Unix milliseconds.
  init(setting: String?, clock: @escaping @BridgeActor () -> Double) {
    self.clock = clock
    guard let setting, !setting.isEmpty else { return }
    let parts = setting.split(separator: ",", omittingEmptySubsequences: false).map {
      Double($0.filter { !$0.isWhitespace })
    }
    if (2...3).contains(parts.count), let latitude = parts[0], let longitude = parts[1],
      (try? checkCoordinates(latitude: latitude, longitude: longitude)) != nil,
      parts.count == 2 || (parts[2].map { $0 >= 0 } ?? false)
    {
      position = Position(
        latitude: latitude, longitude: longitude, accuracy: parts.count == 3 ? parts[2] : nil, timestamp: clock())
    } else {
      problem = "NBRIDGE_LOCATION must be 'latitude,longitude' or 'latitude,longitude,accuracy' (got '\(setting)')"
    }
  }

  func start(accuracy: Accuracy, sink: PositionSink) async throws {
    if let problem { throw BridgeError.unavailable(problem) }
    guard position != nil else {
      throw BridgeError.unavailable(
        "no simulated position: set NBRIDGE_LOCATION=latitude,longitude or call location.simulate({latitude, longitude})"
      )
    }
    session += 1
    self.sink = sink
    // The first fix comes on the next turn of the loop, as a real source's would.
    report { $0.position }
  }

  func refine(to accuracy: Accuracy) async {}

  func stop() async {
    session += 1
    sink = nil
  }

  func close() async { await stop() }

  /// Moves the fix to `position` and reports it to a running session on the next turn of the
  /// loop (not inside the `simulate` call, which a watch's own callback may be making).
  func move(to position: Position) {
    self.position = position
    problem = nil
    report { _ in position }
  }

  /// Hands `fix(self)` to the session running now, on the next turn, unless it has ended by then.
  private func report(_ fix: @escaping @BridgeActor (SimulatedSource) -> Position?) {
    let current = session
    PluginContext.post { [weak self] in
      guard let self, self.session == current, let sink = self.sink, let position = fix(self) else { return }
      sink.position(position)
    }
  }
}
