import Glibc
import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem

/// The app's control socket as an extension of the runtime: served on the run's loop once it is
/// set up, answered from the ops plugins registered (`ping` built in), closed and removed when
/// the run takes nothing more.
package enum ControlExtension {
  /// The extension serving `listener`, the socket the CLI claimed for this run.
  package static func make(listener: ControlListener) -> RuntimeExtension {
    RuntimeExtension(
      name: "control", state: { _ in ControlState() },
      hooks: .init(
        ready: { state, host in state.serve(listener, host) },
        close: { state, _ in state.close() }),
      resource: listener)
  }

  /// The listener of the control extension in `extensions`, if there is one.
  package static func listener(in extensions: [RuntimeExtension]) -> ControlListener? {
    extensions.lazy.compactMap { $0.resource as? ControlListener }.first
  }
}

/// The control socket of one run.
@BridgeActor
final class ControlState {
  var server: ControlServer?

  /// Starts serving `listener`.
  func serve(_ listener: ControlListener, _ host: ExtensionHost) {
    guard server == nil else { return }
    server = ControlServer(listener: listener, loop: host.loop) { line, peer, reply in
      ControlState.answer(line, senderPID: peer.pid, host, reply: reply)
    }
  }

  /// Stops serving and removes the socket (again is harmless).
  func close() {
    server?.close()
    server = nil
  }

  /// Answers one request line with exactly one reply line (through `reply`, now or later):
  /// `{"id":…,"ok":true,…}` or `{"id":…,"ok":false,"code":…,"message":…}`. Lines that are not
  /// a JSON object with a string `op` get `malformed`, unknown ops `unknown_op`.
  static func answer(
    _ line: ArraySlice<UInt8>, senderPID: Int32, _ host: ExtensionHost, reply: @escaping @BridgeActor (String) -> Void
  ) {
    guard let text = String(validating: line, as: UTF8.self), case .object(let fields)? = try? JSONValue(parsing: text)
    else {
      return reply(ControlServer.refusal(code: "malformed", "a request is one JSON object on one line"))
    }
    let id = fields["id"] ?? .null
    guard case .string(let op)? = fields["op"], !op.isEmpty else {
      return reply(ControlServer.refusal(id: id, code: "malformed", "\"op\" must be a non-empty string"))
    }
    guard !host.isExiting else {
      return reply(ControlServer.refusal(id: id, code: ErrorCode.unavailable.rawValue, "the app is exiting"))
    }
    let handler: ControlHandler
    if op == "ping" {
      let app = host.configuration.manifest.id
      handler = { _ in
        var fields = JSONObject()
        fields["pid"] = .number(Double(getpid()))
        fields["app"] = .string(app)
        return fields
      }
    } else if op == "state" {
      handler = { request in try ControlExtension.answerState(request, host) }
    } else if let registered = host.controlHandler(op) {
      handler = registered
    } else {
      let known = (["ping", "state"] + host.controlOps).joined(separator: ", ")
      return reply(ControlServer.refusal(id: id, code: "unknown_op", "no op \"\(op)\" (this app answers: \(known))"))
    }
    let request = ControlRequest(op: op, fields: fields, senderPID: senderPID)
    Task.immediate { @BridgeActor in
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
      host.afterCallback()
    }
  }
}

extension ControlExtension {
  /// The `state` op: `{"op":"state"}` reads the app's lifecycle state, `"set": "background"` or
  /// `"foreground"` (also `"inactive"`, `"active"`) moves it first; the reply is
  /// `{state, isActive, suspended}` after the move has been delivered.
  @BridgeActor
  static func answerState(_ request: ControlRequest, _ host: ExtensionHost) throws(BridgeError) -> JSONObject {
    if request.fields["set"] != nil {
      let wanted = try request.string("set")
      let states = ["background": AppState.background, "foreground": .active, "active": .active, "inactive": .inactive]
      guard let state = states[wanted] else {
        throw BridgeError.invalidParameter("set", "must be background, foreground or inactive (got \"\(wanted)\")")
      }
      host.lifecycle.moveNow(to: state)
    }
    var reply = JSONObject()
    reply["state"] = .string(host.lifecycle.state.rawValue)
    reply["isActive"] = .bool(host.lifecycle.state.isActive)
    reply["suspended"] = .bool(host.lifecycle.isSuspended)
    return reply
  }
}
