import Glibc
import NBridgePlugin
import NBridgeSystem

/// The control socket's ops: a table from op name to handler. `ping` is built in; plugins add
/// theirs with `PluginContext.handleControl` (the app plugin answers `url`, the lifecycle
/// `state` and `fetch`), and runtime code with `handleControl(op:_:)`.
extension Runtime {
  /// Starts serving the socket the CLI claimed for this run, if any.
  func startControlServer() {
    guard let listener = configuration.controlListener, controlServer == nil else { return }
    controlServer = ControlServer(listener: listener, loop: loop) { [unowned self] line, peer, reply in
      self.answerControl(line, senderPID: peer.pid, reply: reply)
    }
  }

  /// Stops serving it and removes the socket (again is harmless).
  func stopControlServer() {
    controlServer?.close()
    controlServer = nil
  }

  public func handleControl(op: String, _ handler: @escaping ControlHandler) {
    controlHandlers[op] = handler
  }

  /// Answers one request line with exactly one reply line (through `reply`, now or later):
  /// `{"id":…,"ok":true,…}` or `{"id":…,"ok":false,"code":…,"message":…}`. Lines that are not
  /// a JSON object with a string `op` get `malformed`, unknown ops `unknown_op`.
  package func answerControl(_ line: ArraySlice<UInt8>, senderPID: Int32, reply: @escaping @BridgeActor (String) -> Void) {
    guard let text = String(validating: line, as: UTF8.self), case .object(let fields)? = try? JSONValue(parsing: text)
    else {
      return reply(ControlServer.refusal(code: "malformed", "a request is one JSON object on one line"))
    }
    let id = fields["id"] ?? .null
    guard case .string(let op)? = fields["op"], !op.isEmpty else {
      return reply(ControlServer.refusal(id: id, code: "malformed", "\"op\" must be a non-empty string"))
    }
    guard exitCode == nil else {
      return reply(ControlServer.refusal(id: id, code: ErrorCode.unavailable.rawValue, "the app is exiting"))
    }
    let handler: ControlHandler
    if op == "ping" {
      let app = configuration.manifest.id
      handler = { _ in
        var fields = JSONObject()
        fields["pid"] = .number(Double(getpid()))
        fields["app"] = .string(app)
        return fields
      }
    } else if let registered = controlHandlers[op] {
      handler = registered
    } else {
      let known = (["ping"] + controlHandlers.keys.sorted()).joined(separator: ", ")
      return reply(ControlServer.refusal(id: id, code: "unknown_op", "no op \"\(op)\" (this app answers: \(known))"))
    }
    let request = ControlRequest(op: op, fields: fields, senderPID: senderPID)
    Task.immediate { @BridgeActor [weak self] in
      var answer = JSONObject()
      answer["id"] = id
      do {
        let result = try await handler(request)
        answer["ok"] = true
        for (key, value) in result where key != "id" && key != "ok" { answer[key] = value }
        reply(JSONValue.object(answer).jsonText)
      } catch let error as BridgeError {
        reply(ControlServer.refusal(id: id, code: error.code.rawValue, error.message))
      } catch {
        reply(ControlServer.refusal(id: id, code: ErrorCode.unknownError.rawValue, String(describing: error)))
      }
      self?.afterCallback()
    }
  }
}
