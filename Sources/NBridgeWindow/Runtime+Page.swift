import NBridgeConsole
import NBridgeLifecycle
import NBridgePlugin
import NBridgeRuntime

/// A page in a window: its `nbridge` calls, listeners and console reach the runtime as text
/// messages that carry the page's token (only the app's own top frame has it), and the
/// runtime answers, emits events and streams results by evaluating script in the page.
extension Runtime {
  /// The script a page gets at document start: the prelude's bridge over the window's messages.
  /// For a remote origin (`remote` in the manifest): its `origin`, checked by the script before
  /// it does anything (WebKit matches the script's URL pattern by host, whatever the port), and
  /// its `permissions`.
  /// `testHooks` (`nbridge test --page`): the page also gets `__nbridgeTestHooks.inspect`, the
  /// prelude's value formatter, for the test framework's messages.
  package func pageScript(
    token: String, origin: String? = nil, permissions: Set<String>? = nil, testHooks: Bool = false
  ) -> String {
    var shared = JSONObject()
    for (name, value) in extensionValues() { shared[name] = value }
    if case .object(let tables) = bridgeTables(permissions: permissions) {
      for (name, value) in tables { shared[name] = value }
    }
    let page: [(String, JSONValue)] = [
      ("page", true), ("token", .string(token)), ("args", .array(configuration.arguments.map { .string($0) })),
      ("nBridge", .bool(configuration.manifest.pageProtocol == .nbridgekit)),
    ]
    for (name, value) in page { shared[name] = value }
    let prelude = PagePrelude.source(
      transport: ConsoleExtension.pageScripts + [EmbeddedFiles.page_js, EmbeddedFiles.page_timers_js],
      scripts: extensionScripts.map(\.source) + LifecycleExtension.pageScripts + [EmbeddedFiles.nbridgekit_js])
    let sharedText = JSONValue.object(shared).jsonText
    if testHooks {
      return "{ const internal = " + sharedText + "; (" + prelude + ")(window, internal); "
        + "Object.defineProperty(window, '__nbridgeTestHooks', { value: { inspect: (v) => internal.inspect(v, 0, []) } }); }"
    }
    let script = "(" + prelude + ")(window, " + sharedText + ");"
    guard let origin else { return script }
    return "if (window.top === window && location.origin === \(JSONValue.string(origin).jsonText)) " + script
  }

  /// Handles a message from the page's `nbridge` handler (its token already checked and
  /// removed); `reply` gets the answer text (nil: nothing to answer). `host` is the window the
  /// page is in when it is not the app's main page (a popup): its streams and answers go there,
  /// and its listeners get no events (those go to the main page). `permissions`: a remote page's
  /// (nil for the app's own page).
  package func pageMessage(
    _ message: Substring, from host: PageHost? = nil, permissions: Set<String>? = nil,
    reply: @escaping @BridgeActor (String?) -> Void
  ) {
    guard let kind = message.first else { return reply(nil) }
    let body = message.dropFirst()
    switch kind {
    case "c", "s":
      let newline = body.firstIndex(of: "\n") ?? body.endIndex
      let head = body[..<newline].split(separator: " ")
      let json = newline < body.endIndex ? body[body.index(after: newline)...] : ""
      guard let code = head.first.flatMap({ Int($0) }) else { return reply(nil) }
      var sink: (@BridgeActor (JSONValue) -> Void)?
      if kind == "s", head.count > 1, let stream = Int(head[1]) {
        let script = { (value: JSONValue) in "__nbridgeStream(\(stream), \(value.jsonText))" }
        if let host {
          sink = { [weak host] value in host?.evaluateInPage(script(value)) }
        } else {
          sink = { [weak self] value in self?.page?.evaluateInPage(script(value)) }
        }
      }
      call(code: code, json: json, sink: sink, permissions: permissions) { outcome in
        switch outcome {
        case .success(let value): reply("1" + value.jsonText)
        case .failure(let error): reply("0" + error.code.rawValue + "\n" + error.message)
        }
      }
    case "l":
      reply(nil)
      guard host == nil else { return }
      let newline = body.firstIndex(of: "\n") ?? body.endIndex
      let head = body[..<newline].split(separator: " ").compactMap { Int($0) }
      guard head.count == 2, newline < body.endIndex else { return }
      let event = String(body[body.index(after: newline)...])
      listenersChanged(service: head[0], event: event, count: head[1], permissions: permissions)
    case "p":
      reply(nil)
      guard let fd = body.first, let level = body.dropFirst().first?.wholeNumberValue else { return }
      emitOutput(fd == "2" ? 2 : 1, String(body.dropFirst(2)), level: LogLevel(rawValue: level))
    case "g":
      // `nbridge.log` in the page: the log extension reads its level, stack and text.
      reply(nil)
      deliver(pageMessage: body, to: "log")
    case "k":
      // NBridgeKit's `nBridge.callFromWeb(json)` (`nbridgekit.js`): answered in the page.
      reply(nil)
      nBridgeKitMessage(String(body), from: host, permissions: permissions)
    case "z":
      // A new document asks whether the app is suspended (`page-timers.js`).
      reply(lifecycle.isSuspended ? "1" : "0")
    default:
      reply(nil)
    }
  }

  /// Handles a WKBridgeKit command (`{service, action, promiseId, option}` or
  /// `{command: 'onBridgeReady'}`), answering as its `BridgeWebViewController` does: by
  /// evaluating `nbridge.resolvePromise(promiseId, data, error)` in the page. A streaming
  /// action's partial results go to `resolvePromise` too (WKBridgeKit's `nbridge.js` keeps the
  /// `retainCallback` the JSON could not carry and hands them to it), and its last answer to
  /// `finallyResolvePromise` where the page has one, so the retained call settles. `host` is the
  /// window the page is in when it is not the app's main page (a popup); `permissions`: a remote
  /// page's (nil for the app's own page).
  package func wkBridgeMessage(_ message: String, from host: PageHost? = nil, permissions: Set<String>? = nil) {
    guard case .object(let command)? = try? JSONValue(parsing: message) else {
      emitOutput(2, "nbridge: WKBridge.postMessage: not a JSON object: \(message.prefix(200))\n")
      return
    }
    let promiseId = command["promiseId"] ?? .null
    func answer(_ outcome: Result<JSONValue, BridgeError>) {
      let script: String
      switch outcome {
      case .success(let data):
        script = "nbridge.resolvePromise(\(promiseId.jsonText), \(data.jsonText), null)"
      case .failure(let error):
        let detail: JSONValue = ["code": .string(error.code.rawValue), "message": .string(error.message)]
        script = "nbridge.resolvePromise(\(promiseId.jsonText), \(JSONValue.string(error.code.rawValue).jsonText), \(detail.jsonText))"
      }
      (host ?? page)?.evaluateInPage(script)
    }
    if case .string("onBridgeReady")? = command["command"] {
      if promiseId != .null { answer(.success(.null)) }
      return
    }
    guard case .string(let service)? = command["service"], case .string(let action)? = command["action"] else {
      return answer(.failure(BridgeError(.invalidParameter, "WKBridge: \"service\" and \"action\" must be strings")))
    }
    // Partial results of a streaming action (an error the page's callback throws is reported
    // as any page error is).
    let sink: @BridgeActor (JSONValue) -> Void = { [weak self, weak host] data in
      let script = "nbridge.resolvePromise(\(promiseId.jsonText), \(data.jsonText), null)"
      (host ?? self?.page)?.evaluateInPage(script)
    }
    let streams = actionStreams(service, action)
    callByName(service, action, command["option"] ?? .null, permissions: permissions, sink: sink) { outcome in
      guard streams, case .success(let data) = outcome else { return answer(outcome) }
      let id = promiseId.jsonText
      (host ?? self.page)?.evaluateInPage(
        "(typeof nbridge.finallyResolvePromise === 'function' ? nbridge.finallyResolvePromise(\(id), \(data.jsonText), null)"
          + " : nbridge.resolvePromise(\(id), \(data.jsonText), null))")
    }
  }

  /// A new document replaced the page: the listeners it had are gone.
  package func pageReplaced() { dropAllListeners() }

  /// Writes a line of the window's own to the run's stdout (1) or stderr (2).
  package func report(_ fd: Int32, _ line: String) { emitOutput(fd, line + "\n") }

  /// Ends the run with `code` (the window closed: 0).
  package func exitPage(_ code: Int32) { requestExit(code: code) }
}
