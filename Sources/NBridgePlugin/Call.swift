/// One call of an action from JS: lets the action stream results and see cancellation.
@BridgeActor
public final class Call {
  /// The service called.
  public let service: String
  /// The action called.
  public let action: String
  /// The calling plugin's context.
  public let context: PluginContext
  private let sink: (@BridgeActor (JSONValue) -> Void)?

  /// A call; the runtime creates these.
  package init(service: String, action: String, context: PluginContext, sink: (@BridgeActor (JSONValue) -> Void)?) {
    self.service = service
    self.action = action
    self.context = context
    self.sink = sink
  }

  /// Sends an intermediate result to the script's `retainCallback` (ignored when there is none).
  public func send<T: Encodable>(_ partial: T) throws {
    guard let sink else { return }
    sink(try JSONValueEncoder().encode(partial))
  }
}
