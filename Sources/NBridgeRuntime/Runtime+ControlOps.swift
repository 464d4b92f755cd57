import NBridgePlugin

/// The control socket's ops: a table from op name to handler, which the socket (NBridgeControl,
/// an extension) answers from. Plugins add theirs with `PluginContext.handleControl` (the app
/// plugin answers `url`, the lifecycle `state` and `fetch`), and runtime code with `handleControl(op:_:)`.
extension Runtime {
  public func handleControl(op: String, _ handler: @escaping ControlHandler) {
    controlHandlers[op] = handler
  }
}
