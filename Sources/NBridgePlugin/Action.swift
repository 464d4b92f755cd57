/// One action of a plugin: typed options in, a typed result out.
///
/// A closure that never awaits is taken as synchronous and runs inline in the JS call;
/// one that awaits runs as a task on the loop thread and resolves when it returns; one
/// that takes a `Reply` runs inline and resolves when it answers. A synchronous one that
/// returns `Bytes` hands them to the runtime as they are (a `Uint8Array` without Base64 in a
/// headless run, owning the bytes' memory when they were made in place).
///
/// `P` is the plugin's type, unconstrained for the reason `PluginDefinition` gives.
public struct Action<P>: Sendable {
  /// The action name (`set` for `nbridge.storage.set`).
  public var name: String
  /// The shape of the options object: the one given, else `Shape(decoding:)` of the options type
  /// (recorded on first read).
  public var options: Shape {
    get { lazyOptions.value }
    set { lazyOptions = LazyShape(newValue) }
  }
  /// The options shape, recorded when first read.
  private(set) var lazyOptions: LazyShape
  /// The shape of the result.
  public var result: Shape
  /// The shape of each streamed intermediate result, for actions that stream to `retainCallback`.
  public var streams: Shape?
  /// One line for `nbridge plugins` and the `.d.ts` comment above the action.
  public var summary: String
  /// A time limit in seconds; a call still running then rejects with `timeout` and is cancelled.
  public var timeLimit: Double?
  /// Whether the action answers even when the app may not use the service (`checkPermission`).
  public var answersWithoutPermission: Bool
  /// Whether a headless run may start this action's calls made in one turn together, in ONE entry
  /// into the runtime once the turn's synchronous code has run (before any other call starts, so
  /// calls still start in the order they were made). For an action that is answered later anyway
  /// and whose start nothing else observes: storage's writes, answered once committed at the end
  /// of the loop turn.
  package var startsAtTurnEnd = false
  let body: ActionBody<P>
  /// The options type, for `decodedOptions`.
  private let optionsType: DecodableType

  private init<O: Decodable>(
    _ name: String, decoding: O.Type, options: Shape?, result: Shape, streams: Shape?, summary: String, timeLimit: Double?,
    answersWithoutPermission: Bool, body: ActionBody<P>
  ) {
    self.answersWithoutPermission = answersWithoutPermission
    self.name = name
    let optionsType = DecodableType(type: O.self)
    self.lazyOptions = options.map { LazyShape($0) } ?? LazyShape { optionsType.recordedShape }
    self.optionsType = optionsType
    self.result = result
    self.streams = streams
    self.summary = summary
    self.timeLimit = timeLimit
    self.body = body
  }

  /// An action whose body may suspend: it starts inline on the loop and runs as a task when it awaits.
  ///
  /// - Parameters:
  ///   - name: what JS calls (`hello` for `nbridge.greeter.hello`).
  ///   - options: the options' shape; omitted, it is recorded from `O` (`Shape(decoding:)`).
  ///   - result: the shape of what the body returns (`.void` when it returns nothing useful).
  ///   - streams: the shape of the partial results it sends with `call.send`, if it streams.
  ///   - summary: one line for `nbridge plugins` and the `.d.ts`.
  ///   - timeLimit: seconds after which the call rejects with `timeout` and the task is cancelled.
  ///   - answersWithoutPermission: answer even when the app may not use the service.
  ///   - body: decodes nothing itself: it gets the plugin, the decoded options and the call. A
  ///     `BridgeError` it throws rejects with its code; anything else with `unknown_error`.
  public init<O: Decodable, R: Encodable>(
    _ name: String, options: Shape? = nil, result: Shape = .void, streams: Shape? = nil, summary: String = "",
    timeLimit: Double? = nil, answersWithoutPermission: Bool = false,
    _ body: @escaping @BridgeActor @Sendable (P, O, Call) async throws -> R
  ) {
    self.init(
      name, decoding: O.self, options: options, result: result, streams: streams, summary: summary, timeLimit: timeLimit,
      answersWithoutPermission: answersWithoutPermission, body: .async { plugin, json, call in
        let options = try JSONValueDecoder().decode(O.self, from: json)
        return try JSONValueEncoder().encode(try await body(plugin, options, call))
      })
  }

  /// An action that answers through `reply`, later, from the loop thread: no Swift task, no
  /// thread hop. The body runs inline; a throw rejects the call at once.
  public init<O: Decodable, R: Encodable>(
    _ name: String, options: Shape? = nil, result: Shape = .void, streams: Shape? = nil, summary: String = "",
    timeLimit: Double? = nil, answersWithoutPermission: Bool = false,
    _ body: @escaping @BridgeActor @Sendable (P, O, Call, Reply<R>) throws -> Void
  ) {
    self.init(
      name, decoding: O.self, options: options, result: result, streams: streams, summary: summary, timeLimit: timeLimit,
      answersWithoutPermission: answersWithoutPermission, body: .deferred { plugin, json, call, erased in
        let options = try JSONValueDecoder().decode(O.self, from: json)
        try body(plugin, options, call, Reply(erased))
      })
  }

  /// An action that answers through `reply`, with options that read the call's JSON text themselves
  /// (`OptionsFromJSON`): chosen over the one above by the compiler, so no action pays a runtime
  /// check of its options type (a conformance lookup per action costs start-up ~100k instructions).
  /// The runtime hands such an action its options' text as it came, unparsed.
  package init<O: OptionsFromJSON, R: Encodable>(
    _ name: String, options: Shape? = nil, result: Shape = .void, streams: Shape? = nil, summary: String = "",
    timeLimit: Double? = nil, answersWithoutPermission: Bool = false, startsAtTurnEnd: Bool = false,
    _ body: @escaping @BridgeActor @Sendable (P, O, Call, Reply<R>) throws -> Void
  ) {
    self.init(
      name, decoding: O.self, options: options, result: result, streams: streams, summary: summary, timeLimit: timeLimit,
      answersWithoutPermission: answersWithoutPermission, body: .deferredText { plugin, text, call, erased in
        try body(plugin, try O(options: text), call, Reply(erased))
      })
    self.startsAtTurnEnd = startsAtTurnEnd
  }

  /// An action whose body never suspends: it runs inline, inside the JS call.
  public init<O: Decodable, R: Encodable>(
    _ name: String, options: Shape? = nil, result: Shape = .void, streams: Shape? = nil, summary: String = "",
    timeLimit: Double? = nil, answersWithoutPermission: Bool = false,
    _ body: @escaping @BridgeActor @Sendable (P, O, Call) throws -> R
  ) {
    // An action on raw JSON values needs no decoding or encoding: skip both on the hot path.
    // Compared by metatype (a cast of the closure to the function type costs a runtime lookup
    // of that type at every start); the bit cast is sound because a generic function value is
    // held in its most abstract form, the same for `(P, O, Call) -> R` once O and R are JSONValue,
    // and taken out to the concrete type through a thunk.
    if R.self == Bytes.self {
      // Bytes go to the runtime as they are: a headless run makes a Uint8Array of them directly.
      self.init(
        name, decoding: O.self, options: options, result: result, streams: streams, summary: summary,
        timeLimit: timeLimit, answersWithoutPermission: answersWithoutPermission,
        body: .bytes { plugin, json, call in
          let options = try JSONValueDecoder().decode(O.self, from: json)
          return try body(plugin, options, call) as! Bytes
        })
      return
    }
    let sync: @BridgeActor @Sendable (P, JSONValue, Call) throws -> JSONValue
    if O.self == JSONValue.self, R.self == JSONValue.self {
      sync = unsafeBitCast(body, to: (@BridgeActor @Sendable (P, JSONValue, Call) throws -> JSONValue).self)
    } else {
      sync = { plugin, json, call in
        let options = try JSONValueDecoder().decode(O.self, from: json)
        return try JSONValueEncoder().encode(try body(plugin, options, call))
      }
    }
    self.init(
      name, decoding: O.self, options: options, result: result, streams: streams, summary: summary, timeLimit: timeLimit,
      answersWithoutPermission: answersWithoutPermission, body: .sync(sync))
  }
}

extension Action {
  /// The shape the options type reads, recorded from its `init(from:)`: tests compare it with `options`.
  package var decodedOptions: Shape { optionsType.recordedShape }
  /// Whether the action was given its options shape (`options:`) rather than recording it.
  package var declaresOptions: Bool { lazyOptions.isGiven }
  /// Whether the action takes its options as JSON text (`OptionsFromJSON`) rather than as a value.
  package var readsOptionsText: Bool {
    if case .deferredText = body { return true }
    return false
  }
}

/// An options type, kept to be recorded later (a metatype of a plain `Decodable` is not `Sendable`).
struct DecodableType: @unchecked Sendable {
  let type: any Decodable.Type

  /// The shape the type's `init(from:)` reads (`Shape(decoding:)`).
  var recordedShape: Shape {
    func record<O: Decodable>(_ decodable: O.Type) -> Shape { Shape(decoding: decodable) }
    return record(self.type)
  }
}

/// A type-erased action body.
enum ActionBody<P>: Sendable {
  case sync(@BridgeActor @Sendable (P, JSONValue, Call) throws -> JSONValue)
  case async(@BridgeActor @Sendable (P, JSONValue, Call) async throws -> JSONValue)
  case deferred(@BridgeActor @Sendable (P, JSONValue, Call, AnyReply) throws -> Void)
  /// A synchronous body returning `Bytes`, kept as bytes up to the runtime.
  case bytes(@BridgeActor @Sendable (P, JSONValue, Call) throws -> Bytes)
  /// A body answering through a reply, reading its options' JSON text itself (`OptionsFromJSON`).
  case deferredText(@BridgeActor @Sendable (P, OptionsText, Call, AnyReply) throws -> Void)
}
