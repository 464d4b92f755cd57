/// The answer to one call, given later from the loop thread (a callback, a timer, a posted
/// job): an action that takes a `Reply` waits on the outside world without a Swift task.
///
/// Awaiting a `CheckedContinuation` resumes through Swift's global executor, two thread
/// switches (tens of microseconds); a reply settles the call's Promise directly. The first
/// answer counts; one dropped without an answer rejects with `unknown_error`.
public struct Reply<R: Encodable> {
  let erased: AnyReply

  /// A reply that settles through `erased` (the runtime makes these).
  package init(_ erased: AnyReply) { self.erased = erased }

  /// Resolves the call with `value`.
  @BridgeActor public func resolve(_ value: R) {
    // R is JSONValue here, so the bit cast is a plain move (a cast costs a dynamic cast each call).
    if R.self == JSONValue.self { return erased.settle(.success(unsafeBitCast(value, to: JSONValue.self))) }
    erased.settle(Result { try JSONValueEncoder().encode(value) })
  }

  /// Resolves the call with the value `jsonText` holds (text checked by `JSONValue.checkText`):
  /// a headless call's value is made from the text by the JS engine, with no `JSONValue` between.
  @BridgeActor package func resolve(jsonText: String) { erased.settle(jsonText: jsonText) }

  /// Rejects the call with `error` (a `BridgeError` keeps its code).
  @BridgeActor public func reject(_ error: any Error) { erased.settle(.failure(error)) }

  /// Settles the call with `outcome`.
  @BridgeActor public func settle(_ outcome: Result<R, any Error>) {
    switch outcome {
    case .success(let value): resolve(value)
    case .failure(let error): reject(error)
    }
  }

  /// Whether the call was cancelled (time limit, exit or signal); an answer is then ignored.
  @BridgeActor public var isCancelled: Bool { erased.isCancelled }

  /// Runs `handler` when the call is cancelled, so the plugin can stop its work.
  @BridgeActor public func onCancel(_ handler: @escaping @BridgeActor () -> Void) { erased.onCancel(handler) }
}

/// Where a call's answers go: the runtime, which closes the call's slot `id`.
@BridgeActor
package protocol ReplyReceiver: AnyObject, Sendable {
  /// Call `id` was answered with `outcome` (first answer only).
  func replied(_ id: Int, _ outcome: Result<JSONValue, any Error>)
  /// Call `id` was answered with a value's JSON text (first answer only; only when the reply takes text).
  func replied(_ id: Int, jsonText: String)
}

/// Where the replies of one run's calls go: its runtime while the run lasts. The run cuts the route
/// when it ends (`cut()`), and a plugin that answers later reaches nothing.
///
/// Replies hold the route strongly rather than the runtime weakly: a weak reference gives the
/// runtime a side table for good, which sends every retain and release of it (dozens a call)
/// down the runtime's slow path, and costs an atomic update of that table at each reply made
/// and dropped.
@BridgeActor
package final class ReplyRoute {
  /// The runtime, until the run has ended. Not counted: the runtime owns the route and cuts it
  /// before it can go away.
  package private(set) unowned(unsafe) var receiver: (any ReplyReceiver)?

  /// A route to `receiver`.
  package init(to receiver: any ReplyReceiver) { self.receiver = receiver }

  /// Ends the route: replies answered from now on reach nothing.
  package func cut() { receiver = nil }
}

/// A reply with its type erased: the call's answer slot, shared by the runtime and the action's `Reply`.
@BridgeActor
package final class AnyReply {
  /// Where the answer goes (a plugin may answer after the run that made the call has ended).
  /// One reference and an id rather than a closure per kind of answer: no allocation beyond the reply.
  private let route: ReplyRoute
  private let id: Int
  /// Whether a value's JSON text goes to the receiver as it is (else it is parsed first).
  private let takesText: Bool
  private var answered = false
  private var cancelHandlers: [@BridgeActor () -> Void] = []
  /// Whether the call was cancelled.
  package private(set) var isCancelled = false

  /// A slot that passes the first answer of call `id` along `route`; a value's JSON text as it is
  /// when `takesText`, else parsed.
  package init(_ route: ReplyRoute, id: Int, takesText: Bool = false) {
    self.route = route
    self.id = id
    self.takesText = takesText
  }

  /// Passes `outcome` on, the first time only.
  package func settle(_ outcome: Result<JSONValue, any Error>) {
    guard !answered else { return }
    answered = true
    route.receiver?.replied(id, outcome)
  }

  /// Passes a value's JSON text on, the first time only.
  package func settle(jsonText: String) {
    guard !answered else { return }
    guard takesText else { return settle(Result { try JSONValue(parsing: jsonText) }) }
    answered = true
    route.receiver?.replied(id, jsonText: jsonText)
  }

  /// Marks the call cancelled and tells the action's cancel handlers, once.
  package func cancel() {
    guard !isCancelled else { return }
    isCancelled = true
    answered = true
    let handlers = cancelHandlers
    cancelHandlers = []
    for handler in handlers { handler() }
  }

  func onCancel(_ handler: @escaping @BridgeActor () -> Void) {
    if isCancelled { handler() } else { cancelHandlers.append(handler) }
  }

  // Not isolated: an isolated deinit checks the executor on every release (~1,000 instructions,
  // a tenth of a burst `storage.set`'s own work), and almost every reply goes away answered.
  // One dropped unanswered tells the receiver on the loop: at once when released there (as
  // replies are), else in a job posted to it.
  deinit {
    guard !answered else { return }
    let id = id
    let dropped = BridgeError(.unknownError, "the action dropped its reply without answering")
    let route = route
    guard LoopExecutor.shared.isOnLoopThread else {
      PluginContext.post { route.receiver?.replied(id, .failure(dropped)) }
      return
    }
    BridgeActor.assumeIsolated { route.receiver?.replied(id, .failure(dropped)) }
  }
}
