/// What the runtime provides to plugins; plugins use it through `PluginContext`.
@BridgeActor
package protocol PluginHost: AnyObject {
  /// Calls the JS listeners of `service`'s `event` with `payload`.
  func emit(service: String, event: String, payload: JSONValue)
  /// How many JS listeners `service`'s `event` has.
  func listenerCount(service: String, event: String) -> Int
  /// Keeps the run alive until the returned token is released.
  func holdRun(reason: String) -> Int
  /// Releases a hold.
  func releaseRun(_ token: Int)
  /// Runs `body` on the loop after `delay`, then every `repeating` if given.
  func addTimer(after delay: Duration, repeating: Duration?, _ body: @escaping @BridgeActor () -> Void) -> Int
  /// The time now on the loop's clock (the one the run was given: a test's may be moved by hand).
  var now: LoopInstant { get }
  /// The wall-clock time in Unix milliseconds, moving with a test's clock when it does not pass by itself.
  var wallClockMilliseconds: Int64 { get }
  /// Cancels a timer.
  func cancelTimer(_ id: Int)
  /// Runs `body` on the loop whenever `fd` is readable (or closed), without any polling loop.
  func watchReadable(_ fd: Int32, _ body: @escaping @BridgeActor () -> Void) -> Int
  /// Stops watching.
  func cancelWatch(_ id: Int)
  /// Ends the run with `code` once plugins have stopped.
  func requestExit(code: Int32)
  /// Whether the app may use `service`.
  func isAllowed(service: String) -> Bool
  /// The GLib main context the loop iterates (a `GMainContext *`), for GDBus and friends.
  var glibMainContext: OpaquePointer? { get }
  /// Answers the control socket's `op` with `handler` for the rest of the run (a later handler
  /// for the same op replaces the earlier one).
  func handleControl(op: String, _ handler: @escaping ControlHandler)
  /// The app's window when the run shows one (`nbridge app`), else nil.
  var window: (any WindowHost)? { get }
  /// Removes what the runtime keeps between runs of this app (its compiled modules) and keeps
  /// none for the rest of the run; the kinds removed (`moduleCache`).
  func clearRuntimeCaches() -> [String]
}

extension PluginHost {
  /// Hosts without a control socket ignore handlers.
  public func handleControl(op: String, _ handler: @escaping ControlHandler) {}
  /// Hosts without a window have none.
  public var window: (any WindowHost)? { nil }
  /// Hosts without caches clear nothing.
  public func clearRuntimeCaches() -> [String] { [] }
}
