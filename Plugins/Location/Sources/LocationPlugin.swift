import NBridgePlugin

/// `nbridge.location`: WKBridgeKit's `GeoLocationPlugin` on Linux: the position from GeoClue2
/// (or the Location portal in a Flatpak sandbox), once or as a stream.
@BridgeActor
public final class LocationPlugin: Plugin {
  /// The service name, read at every start; the definition is built on first use.
  public nonisolated static let declaration = PluginDeclaration(service: "location")
  /// The service's actions.
  public nonisolated static let definition = PluginDefinition<LocationPlugin>(
    declaration,
    summary: "The device's position from GeoClue2 (the Location portal in a sandbox): once, or as a stream.",
    actions: [
      Action(
        "available", result: LocationShapes.available,
        summary:
          "Resolves when a position can be asked for (naming the source); unavailable or permission_denied otherwise."
      ) { (plugin, _: NoOptions, call, reply: Reply<JSONValue>) in
        let source = plugin.service.source.name
        plugin.follow(call: reply) { state in
          LocationService.Caller(kind: .probe, accuracy: .country, position: { _ in }) { result in
            state.finish()
            reply.settle(result.map { ["source": .string(source)] as JSONValue }.mapError { $0 as any Error })
          }
        }
      },
      Action(
        "current", options: LocationShapes.current, result: LocationShapes.position,
        summary:
          "One fix: {latitude, longitude, accuracy, altitude, speed, heading, timestamp}; timeout (ms, default 30000) rejects timeout."
      ) { (plugin, options: CurrentOptions, _, reply: Reply<Position>) in
        let follow = plugin.follow(call: reply) { state in
          LocationService.Caller(
            kind: .once, accuracy: options.accuracy,
            position: { position in
              state.finish()
              reply.resolve(position)
            },
            end: { result in
              state.finish()
              if case .failure(let error) = result { reply.reject(error) }
            })
        }
        guard let (id, state) = follow else { return }
        state.timer = plugin.context.setTimer(after: .milliseconds(Int64(options.timeout))) { [weak plugin] in
          guard !state.ended else { return }
          state.finish()
          plugin?.service.remove(id)
          reply.reject(BridgeError(.timeout, "no position within \(Int(options.timeout)) ms"))
        }
      },
      Action(
        "watch", options: LocationShapes.watch, result: .void, streams: LocationShapes.position,
        summary: "Sends every fix to retainCallback until clearWatch(), then resolves."
      ) { (plugin, options: WatchOptions, call, reply: Reply<JSONValue>) in
        guard call.canStream else {
          throw BridgeError.invalidParameter("retainCallback", "must be a function: watch streams positions to it")
        }
        plugin.follow(call: reply) { state in
          LocationService.Caller(
            kind: .watch, accuracy: options.accuracy, position: { try? call.send($0) },
            end: { result in
              state.finish()
              reply.settle(result.map { JSONValue.null }.mapError { $0 as any Error })
            })
        }
      },
      Action(
        "clearWatch", result: LocationShapes.cleared,
        summary: "Ends every watch (each resolves); the position source stops when nothing else waits."
      ) { (plugin, _: NoOptions, _) in
        ["cleared": .number(Double(plugin.service.clearWatches()))] as JSONValue
      },
      Action(
        "simulate",
        summary: "Moves the simulated position (nbridge test, or NBRIDGE_LOCATION set); unavailable with a real source."
      ) { (plugin, options: SimulateOptions, _) throws -> JSONValue in
        guard let simulated = plugin.service.source as? SimulatedSource else {
          throw BridgeError.unavailable(
            "this run reads positions from \(plugin.service.source.name); simulate moves only the simulated source (nbridge test, or NBRIDGE_LOCATION set)"
          )
        }
        simulated.move(to: options.position(at: Double(plugin.context.wallClockMilliseconds)))
        return .null
      },
    ])

  let context: PluginContext
  private(set) lazy var service = LocationService(source: SourceChoice.make(for: context))

  /// Creates the plugin; no bus is touched until the first call.
  public init(context: PluginContext) throws {
    self.context = context
  }

  /// Stops the position source and rejects the calls still waiting.
  public func stop() async {
    await service.close()
  }

  /// Adds the caller `make` builds to the service and takes it away again if the call is
  /// cancelled before it ends (`make` gets the state its answers mark ended); returns its id and
  /// that state, or nil when the call has already ended.
  @discardableResult
  private func follow<R>(call reply: Reply<R>, _ make: (CallerState) -> LocationService.Caller)
    -> (Int, CallerState)?
  {
    guard !reply.isCancelled else { return nil }
    let state = CallerState()
    let id = service.add(make(state))
    guard !state.ended else { return nil }
    reply.onCancel { [weak self] in
      guard !state.ended else { return }
      state.finish()
      self?.service.remove(id)
    }
    return (id, state)
  }
}

/// Whether a caller has had its answer, so a late timer or cancel does nothing.
@BridgeActor
final class CallerState {
  /// Set by the first answer.
  private(set) var ended = false
  /// The `current` call's time limit, cancelled by the first answer.
  var timer: LoopTimer?

  /// Marks the caller answered and cancels its timer.
  func finish() {
    ended = true
    timer?.cancel()
    timer = nil
  }
}
