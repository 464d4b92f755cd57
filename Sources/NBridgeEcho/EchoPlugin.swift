import NBridgePlugin

/// A plugin for tests and benchmarks (service `echo`): echoes, streams, fails, waits and emits on demand.
@BridgeActor
public final class EchoPlugin: Plugin {
  /// Options of `typed`: a string key and an integer value.
  public struct Typed: Codable, Sendable {
    /// A key.
    public var key: String
    /// A whole number.
    public var value: Int
  }

  struct Count: Decodable { var count: Int }
  struct Failure: Decodable {
    var code: ErrorCode
    var message: String
  }
  struct Wait: Decodable { var ms: Double }
  struct Message: Decodable { var message: String }
  struct Later: Decodable {
    var ms: Double
    var code: ErrorCode?
  }
  struct Emit: Decodable {
    var event: String
    var payload: JSONValue
  }

  /// The service name, read at every start; the definition is built on first use.
  public nonisolated static let declaration = PluginDeclaration(service: "echo")
  /// `echo`, `echoAsync`, `echoReply`, `typed`, `stream`, `fail`, `crash`, `wait`, `slow`, `later`, `dropReply`, `warn` and `emit`; events `ping` and `watch`.
  public nonisolated static let definition = PluginDefinition<EchoPlugin>(
    declaration, summary: "Test plugin: echoes its options.",
    actions: [
      Action("echo", options: .any, result: .any, summary: "Resolves with its options.") {
        (_, options: JSONValue, _) in options
      },
      Action("echoAsync", options: .any, result: .any, summary: "Resolves with its options after a turn of the loop.") {
        (_, options: JSONValue, _) async in
        // Suspends until a job posted to the loop resumes it, as an action waiting on I/O
        // does. (`Task.yield()` would enqueue on the global pool: a thread hop each way.)
        await withCheckedContinuation { (resume: CheckedContinuation<Void, Never>) in
          PluginContext.post { resume.resume() }
        }
        return options
      },
      Action("echoReply", options: .any, result: .any, summary: "Answers with its options through a Reply, from a loop job.") {
        (_, options: JSONValue, _, reply: Reply<JSONValue>) in
        PluginContext.post { reply.resolve(options) }
      },
      Action(
        "typed", options: .fields(["key": .string, "value": .integer]), result: .fields(["key": .string, "value": .integer])
      ) { (_, options: Typed, _) in options },
      Action(
        "stream", options: .fields(["count": .integer]), result: .integer, streams: .integer,
        summary: "Sends 1...count to retainCallback, then resolves with count."
      ) { (_, options: Count, call) async throws in
        for i in 1...max(options.count, 1) {
          try call.send(i)
          await Task.yield()
        }
        return options.count
      },
      Action("fail", options: .fields(["code": .string, "message": .string])) { (_, options: Failure, _) throws -> JSONValue in
        throw BridgeError(options.code, options.message)
      },
      Action("crash") { (_, _: NoOptions, _) throws -> JSONValue in throw EchoCrash() },
      Action("wait", options: .fields(["ms": .number]), result: .number) { (plugin, options: Wait, _) async in
        await plugin.sleep(options.ms)
        return options.ms
      },
      Action("slow", options: .fields(["ms": .number]), timeLimit: 0.1) { (plugin, options: Wait, _) async throws in
        await plugin.sleep(options.ms)
        if Task.isCancelled { throw CancellationError() }
        plugin.finishedSlowCalls += 1
        return JSONValue.null
      },
      Action(
        "later", options: .fields(["ms": .number, "code?": .string]), result: .number,
        summary: "Answers through a Reply after ms on a loop timer: resolves with ms, or rejects with code.",
        timeLimit: 1
      ) { (plugin, options: Later, _, reply: Reply<Double>) in
        let timer = plugin.context.setTimer(after: options.ms / 1000) {
          if let code = options.code { reply.reject(BridgeError(code, "later failed")) } else { reply.resolve(options.ms) }
        }
        reply.onCancel {
          timer.cancel()
          plugin.cancelledReplies += 1
        }
      },
      Action("dropReply", summary: "Takes a Reply and drops it without answering.") {
        (_, _: NoOptions, _, _: Reply<Bool>) in
      },
      Action("warn", options: .fields(["message": .string]), summary: "Prints a warning through the context.") {
        (plugin, options: Message, _) in
        plugin.context.warn(options.message)
        return JSONValue.null
      },
      Action("cancelledReplies", result: .integer) { (plugin, _: NoOptions, _) in plugin.cancelledReplies },
      Action("slowCount", result: .integer) { (plugin, _: NoOptions, _) in plugin.finishedSlowCalls },
      Action("emit", options: .fields(["event": .string, "payload": .any])) { (plugin, options: Emit, _) in
        plugin.context.emit(options.event, options.payload)
        return JSONValue.null
      },
    ],
    events: [
      EventSpec("ping", payload: .any, summary: "Emitted by `emit`."),
      EventSpec("watch", payload: .any, summary: "A listener keeps the run alive.", keepsAlive: true),
    ])

  let context: PluginContext
  var finishedSlowCalls = 0
  var cancelledReplies = 0

  /// Creates the plugin.
  public init(context: PluginContext) { self.context = context }

  /// Sleeps on a loop timer; a cancelled call wakes at once.
  func sleep(_ ms: Double) async {
    let sleeper = Sleeper()
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        sleeper.continuation = continuation
        sleeper.timer = context.setTimer(after: ms / 1000) { sleeper.wake() }
      }
    } onCancel: {
      PluginContext.post { sleeper.wake() }
    }
  }
}

/// A sleeping call: woken by its timer or by cancellation, once.
@BridgeActor
final class Sleeper {
  var continuation: CheckedContinuation<Void, Never>?
  var timer: LoopTimer?

  func wake() {
    timer?.cancel()
    continuation?.resume()
    continuation = nil
  }
}

struct EchoCrash: Error, CustomStringConvertible {
  var description: String { "the echo plugin crashed on purpose" }
}
