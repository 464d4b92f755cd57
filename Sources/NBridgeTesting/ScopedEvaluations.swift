import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem

/// What a scoped run (`NBridgeTest.withRuntime`) evaluates for its test, as an extension of the
/// runtime: each evaluation is the body of an async function whose Promise settles through the
/// extension's native function `settleScoped`; nothing comes back through a side channel.
@BridgeActor
final class ScopedEvaluations {
  /// The run's host, set when the runtime makes the extension's state.
  private var host: ExtensionHost?
  /// The evaluations waiting for their Promise, by id.
  private var waiting: [Int: @BridgeActor (JSONValue) -> Void] = [:]
  private var nextID = 1

  nonisolated init() {}

  /// The extension: this object is its state for the one run it serves.
  nonisolated func makeExtension() -> RuntimeExtension {
    RuntimeExtension(
      name: "scope", state: { host in self.adopt(host) },
      functions: [
        .init("settleScoped") { state, _, args -> JSONValue? in
          state.settle(id: Int(saturating: args.number(0)), text: args.string(1) ?? "")
          return nil
        }
      ])
  }

  /// Keeps the run's host; the state of the one run this object serves.
  private func adopt(_ host: ExtensionHost) -> ScopedEvaluations {
    self.host = host
    return self
  }

  /// Evaluates `body` as the body of an async function; `done` gets `{"value": …}` with what it
  /// resolved (as `JSON.stringify` sees it) or `{"error": {name, message, code}}` with what it
  /// rejected with, once it settles (or at once when the run has ended with `status`).
  func evaluate(_ body: String, url: String, status: Int32?, _ done: @escaping @BridgeActor (JSONValue) -> Void) {
    guard status == nil, let host, let settle = host.native.map({ host.property($0, "settleScoped") }) else {
      return done(Self.endedError(status ?? 0))
    }
    let id = nextID
    nextID += 1
    let source = """
      (function (settle) { (async () => {
      \(body)
      })().then((value) => {
        let text;
        try { text = JSON.stringify({ value: value === undefined ? null : value }); }
        catch (e) { text = JSON.stringify({ error: { name: 'TypeError', message: 'the result is not JSON: ' + e.message, code: null } }); }
        settle(\(id), text);
      }, (e) => settle(\(id), JSON.stringify({ error: {
        name: String(e && e.name || 'Error'), message: String(e && e.message || e), code: e && e.code !== undefined ? String(e.code) : null } })));
      })
      """
    waiting[id] = done
    do throws(ThrownValue) {
      let function = try host.evaluateUserScript(source, url: url)
      _ = try host.call(function, [settle])
    } catch {
      // Only a syntax error gets here: the async function catches what its body throws.
      let report = """
        ((settle, id, e) => settle(id, JSON.stringify({ error: {
          name: String(e && e.name || 'Error'), message: String(e && e.message || e), code: null } })))
        """
      if let reporter = try? host.evaluate(report, url: "nbridge:scope") {
        _ = try? host.call(reporter, [settle, host.value(.number(Double(id))), error.value])
      }
    }
    host.afterCallback()
  }

  private func settle(id: Int, text: String) {
    guard let done = waiting.removeValue(forKey: id) else { return }
    done((try? JSONValue(parsing: text)) ?? ["error": ["name": "Error", "message": "unreadable result", "code": .null]])
  }

  /// Fails every evaluation still waiting: the run ended with `status` before it settled.
  func failWaiting(status: Int32) {
    let ended = waiting.sorted { $0.key < $1.key }
    waiting.removeAll()
    for (_, done) in ended { done(Self.endedError(status)) }
  }

  private static func endedError(_ status: Int32) -> JSONValue {
    ["error": ["name": "RunEnded", "message": .string("the run ended with status \(status)"), "code": .null]]
  }
}
