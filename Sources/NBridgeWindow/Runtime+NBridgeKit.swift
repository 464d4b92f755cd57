import NBridgePlugin
import NBridgeRuntime

/// NBridgeKit's page protocol (`pageProtocol: "nbridgekit"`): the page's global `nBridge`
/// (`nbridgekit.js`) posts `callFromWeb(json)` commands, and the answers are evaluated in the page
/// as NBridgeKit's `BridgeWebWindow` does: `nbridge.finallyResolvePromise(promiseId, data, error)`
/// for a call's answer, `nbridge.resolvePromise(promiseId, data, null)` for each partial result of
/// a streaming action. A success without data answers `""`, as NBridgeKit's plugins do.
extension Runtime {
  /// Handles one `nBridge.callFromWeb(json)`: `{service, action, promiseId, option}`.
  /// `host`: the window the page is in when it is not the app's main page (a popup);
  /// `permissions`: a remote page's (nil for the app's own page).
  func nBridgeKitMessage(_ message: String, from host: PageHost?, permissions: Set<String>?) {
    // Parsed as a headless call's options are (size limit, lone surrogates refused); a command
    // refused for what it holds is still answered, when its promiseId can be read.
    var refusal: BridgeError?
    var parsed: JSONValue?
    do throws(BridgeError) { parsed = try CallOptions(text: Substring(message), readsText: false).value } catch {
      refusal = error
      parsed = message.utf8.count <= BridgeLimits.maxTextLength ? try? JSONValue(parsing: message) : nil
    }
    guard case .object(let command)? = parsed, let promiseId = command["promiseId"], promiseId != .null
    else {
      // NBridgeKit logs such a command and drops it: without a promiseId nothing can be answered.
      return emitOutput(2, "nbridge: nBridge.callFromWeb: not a command with a promiseId: \(message.prefix(200))\n")
    }
    let id = promiseId.jsonText
    func answer(_ outcome: Result<JSONValue, BridgeError>) {
      switch outcome {
      case .success(let data):
        (host ?? page)?.evaluateInPage("nbridge.finallyResolvePromise(\(id), \((data == .null ? .string("") : data).jsonText), null)")
      case .failure(let error):
        let detail: JSONValue = ["code": .string(error.code.rawValue), "message": .string(error.message)]
        let code = JSONValue.string(error.code.rawValue).jsonText
        (host ?? page)?.evaluateInPage("nbridge.finallyResolvePromise(\(id), \(code), \(detail.jsonText))")
      }
    }
    if let refusal {
      let message = refusal.message.hasPrefix("\"option.") ? "\"" + refusal.message.dropFirst(8) : refusal.message
      return answer(.failure(BridgeError(refusal.code, "nBridge: \(message)")))
    }
    guard case .string(let service)? = command["service"], case .string(let action)? = command["action"] else {
      return answer(.failure(BridgeError(.invalidParameter, "nBridge: \"service\" and \"action\" must be strings")))
    }
    let options = command["option"] ?? .null
    guard service == "preference" else {
      let inPopup = host != nil
      let sink: @BridgeActor (JSONValue) -> Void = { [weak self, weak host] value in
        let script = "nbridge.resolvePromise(\(id), \(value.jsonText), null)"
        if inPopup { host?.evaluateInPage(script) } else { self?.page?.evaluateInPage(script) }
      }
      callByName(service, action, options, permissions: permissions, sink: sink, answer)
      return
    }
    let request: NBridgeKitPreference.Request
    do {
      request = try NBridgeKitPreference.request(action: action, options: options)
    } catch {
      return answer(.failure(BridgeError(error.code, "preference.\(action): \(error.message)")))
    }
    callByName("preference", request.action, request.options, permissions: permissions, sink: nil) { outcome in
      answer(
        outcome.flatMap { value in
          Result { () throws(BridgeError) in try request.answer(value) }
            .mapError { BridgeError($0.code, "preference.\(action): \($0.message)") }
        })
    }
  }
}

/// NBridgeKit's `preference` service over nbridge's (the storage plugin's default group): `get`
/// answers the stored string in Base64 (NBridgeKit's page decodes it with `atob`), and the typed
/// `getBoolean`/`getInt`/`getLong` answer the value as text (`"true"`, `"42"`), as NBridgeKit's do.
/// Each passes `secure` on to nbridge's `preference`.
enum NBridgeKitPreference {
  /// The nbridge `preference` call to make, and how its answer becomes NBridgeKit's.
  struct Request {
    var action: String
    var options: JSONValue
    var answer: (JSONValue) throws(BridgeError) -> JSONValue
  }

  /// A typed value kind: `Boolean`, `Int` (32-bit) or `Long` (a whole number JS holds exactly).
  enum Kind: String, CaseIterable {
    case boolean = "Boolean"
    case int = "Int"
    case long = "Long"

    /// The value's text if `value` is of this kind, else nil.
    func text(_ value: JSONValue) -> String? {
      switch (self, value) {
      case (.boolean, .bool(let b)): return b ? "true" : "false"
      case (.int, .number(let n)) where n == n.rounded() && n >= -2_147_483_648 && n <= 2_147_483_647:
        return String(Int64(n))
      case (.long, .number(let n)) where n == n.rounded() && abs(n) <= 9_007_199_254_740_991:
        return String(Int64(n))
      default: return nil
      }
    }

    var what: String {
      switch self {
      case .boolean: "true or false"
      case .int: "a whole number from -2147483648 to 2147483647"
      case .long: "a whole number from -(2^53-1) to 2^53-1"
      }
    }

    var zero: JSONValue { self == .boolean ? .bool(false) : .number(0) }
  }

  static let actions = ["get", "set", "remove"] + Kind.allCases.flatMap { ["get\($0.rawValue)", "set\($0.rawValue)"] }

  /// The request for NBridgeKit's `action` with `options`, or its error (a bad value names its field).
  static func request(action: String, options: JSONValue) throws(BridgeError) -> Request {
    let fields: JSONObject
    switch options {
    case .object(let object): fields = object
    case .null: fields = JSONObject()
    default: throw BridgeError(.invalidParameter, "options must be an object")
    }
    switch action {
    case "get":
      return Request(action: "get", options: options) { value in
        switch value {
        case .null: return .null
        case .string(let text): return .string(Base64Text.encode(Array(text.utf8)))
        default: return .string(Base64Text.encode(Array(value.jsonText.utf8)))
        }
      }
    case "set", "remove":
      return Request(action: action, options: options) { _ in .string("") }
    default:
      break
    }
    guard let kind = Kind.allCases.first(where: { action == "get\($0.rawValue)" || action == "set\($0.rawValue)" }) else {
      throw BridgeError(
        .invalidActionName, "preference has no action \"\(action)\" (it has \(actions.joined(separator: ", ")))")
    }
    if action.hasPrefix("set") {
      guard let value = fields["value"], kind.text(value) != nil else {
        throw BridgeError(.invalidParameter, "\"value\" must be \(kind.what), got \(fields["value"]?.jsonText ?? "nothing")")
      }
      var stored = JSONObject()
      stored["key"] = fields["key"] ?? .null
      stored["value"] = value
      if let secure = fields["secure"] { stored["secure"] = secure }
      return Request(action: "set", options: .object(stored)) { _ in .string("") }
    }
    let fallback = fields["defaultValue"] ?? kind.zero
    guard let fallbackText = kind.text(fallback) else {
      throw BridgeError(.invalidParameter, "\"defaultValue\" must be \(kind.what), got \(fallback.jsonText)")
    }
    var query = JSONObject()
    query["key"] = fields["key"] ?? .null
    if let secure = fields["secure"] { query["secure"] = secure }
    return Request(action: "get", options: .object(query)) { value throws(BridgeError) in
      if value == .null { return .string(fallbackText) }
      guard let text = kind.text(value) else {
        throw BridgeError(
          .invalidParameter, "the value stored under \"key\" is \(value.jsonText), not \(kind.what)")
      }
      return .string(text)
    }
  }
}
