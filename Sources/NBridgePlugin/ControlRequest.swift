/// One request that arrived on the app's control socket (`$XDG_RUNTIME_DIR/nbridge/<app id>.sock`),
/// as a plugin's op handler sees it.
///
/// A request is one JSON line, `{"id":1,"op":"url","url":"dbuurl://localhost/data"}`; the
/// handler gets its members and returns the members of the reply, which the runtime sends as
/// `{"id":1,"ok":true,...}`. A thrown `BridgeError` becomes `{"id":1,"ok":false,"code":...,
/// "message":...}`; anything else thrown becomes `unknown_error`.
public struct ControlRequest: Sendable {
  /// The op name (`url`, `state`, ...), the key the handler was registered under.
  public var op: String
  /// Every member of the request line, `id` and `op` included.
  public var fields: JSONObject
  /// The process id of the sender (from `SO_PEERCRED`; always a process of the same user).
  public var senderPID: Int32

  /// A request; the runtime makes these.
  public init(op: String, fields: JSONObject, senderPID: Int32) {
    self.op = op
    self.fields = fields
    self.senderPID = senderPID
  }

  /// The string member `name`, or `invalid_parameter` naming it.
  public func string(_ name: String) throws(BridgeError) -> String {
    guard case .string(let value)? = fields[name] else {
      throw BridgeError.invalidParameter(name, "must be a string")
    }
    return value
  }
}

/// Answers one control-socket op: the reply's members, or a thrown `BridgeError`.
public typealias ControlHandler = @BridgeActor (ControlRequest) async throws -> JSONObject
