import CJavaScriptCore
import NBridgePlugin

/// The bridge: a JS call of `nbridge.<service>.<action>` reaching a plugin, and its Promise settling.
extension Runtime {
  /// Handles `native.call(sid, aid, json, callback)` and returns the call's Promise.
  func call(service sid: Int, action aid: Int, json: JSValueRef?, callback: JSObjectRef?) -> JSValueRef {
    var resolveFn: JSObjectRef?
    var rejectFn: JSObjectRef?
    let ctx = js.ref
    guard let promise = JSObjectMakeDeferredPromise(ctx, &resolveFn, &rejectFn, nil), let resolveFn, let rejectFn
    else { return JSValueMakeUndefined(ctx) }
    let slot = slots[sid]
    let action = slot.plugin.actions[aid]
    let label = slot.labels[aid]

    guard slot.allowed || action.answersWithoutPermission else {
      let error = BridgeError(
        .permissionDenied,
        "the app may not use \"\(slot.plugin.service)\" (add \"\(slot.plugin.permission)\" to \"permissions\" in nbridge.json or pass --allow \(slot.plugin.permission))"
      )
      reject(rejectFn, with: error, label: label)
      return promise
    }

    let options: JSONValue
    if let json {
      do {
        options = try js.parseJSONString(json)
      } catch {
        reject(rejectFn, with: BridgeError(.invalidParameter, "options are not JSON: \(error)"), label: label)
        return promise
      }
    } else {
      options = .object(JSONObject())
    }

    activate(slot)
    switch slot.state {
    case .ready(let instance):
      let context = slot.context!
      switch instance.invocations[aid] {
      case .sync(let body):
        let call: Call
        if callback == nil, let reused = slot.plainCalls[aid] {
          call = reused
        } else {
          call = Call(service: slot.plugin.service, action: action.name, context: context, sink: sink(callback))
          if callback == nil { slot.plainCalls[aid] = call }
        }
        do {
          let result = try body(options, call)
          js.settle(resolveFn, js.value(result))
        } catch {
          reject(rejectFn, with: bridgeError(from: error), label: label)
        }
      case .async(let body):
        startAsync(label: label, resolve: resolveFn, reject: rejectFn, callback: callback, timeLimit: action.timeLimit) {
          let call = Call(service: slot.plugin.service, action: action.name, context: context, sink: self.sink(callback))
          return try await body(options, call)
        }
      case .deferred(let body):
        let id = addPending(
          label: label, resolve: resolveFn, reject: rejectFn, callback: callback, timeLimit: action.timeLimit)
        let reply = PendingReply { [weak self] outcome in self?.finishPending(id, outcome) }
        pendingCalls[id]?.reply = reply
        let call = Call(service: slot.plugin.service, action: action.name, context: context, sink: sink(callback))
        do { try body(options, call, reply) } catch { reply.settle(.failure(error)) }
      }
    case .starting(let start):
      startAsync(label: label, resolve: resolveFn, reject: rejectFn, callback: callback, timeLimit: action.timeLimit) {
        await start.value
        return try await self.invokeStarted(slot: slot, action: aid, options: options, callback: callback)
      }
    case .failed(let error):
      reject(rejectFn, with: error, label: label)
    case .idle:
      reject(rejectFn, with: BridgeError(.unknownError, "the plugin did not start"), label: label)
    }
    return promise
  }

  private func invokeStarted(slot: ServiceSlot, action aid: Int, options: JSONValue, callback: JSObjectRef?)
    async throws -> JSONValue
  {
    if case .failed(let error) = slot.state { throw error }
    guard let instance = slot.instance, let context = slot.context else {
      throw BridgeError(.unknownError, "the plugin did not start")
    }
    let call = Call(
      service: slot.plugin.service, action: slot.plugin.actions[aid].name, context: context, sink: sink(callback))
    switch instance.invocations[aid] {
    case .sync(let body): return try body(options, call)
    case .async(let body): return try await body(options, call)
    case .deferred(let body):
      return try await withCheckedThrowingContinuation { continuation in
        let reply = PendingReply { continuation.resume(with: $0) }
        do { try body(options, call, reply) } catch { reply.settle(.failure(error)) }
      }
    }
  }

  private func sink(_ callback: JSObjectRef?) -> (@BridgeActor (JSONValue) -> Void)? {
    guard let callback else { return nil }
    return { [unowned self] value in
      do { try self.js.call(callback, [self.js.value(value)]) } catch let error as JSException { self.reportUncaught(error.value) } catch {}
    }
  }

  /// Runs an action as a task on the loop; it starts inline and settles whenever it returns.
  private func startAsync(
    label: String, resolve: JSObjectRef, reject: JSObjectRef, callback: JSObjectRef?, timeLimit: Double?,
    _ body: @escaping @BridgeActor () async throws -> JSONValue
  ) {
    let id = addPending(label: label, resolve: resolve, reject: reject, callback: callback, timeLimit: timeLimit)
    let task = Task.immediate { @BridgeActor [unowned self] in
      let outcome: Result<JSONValue, any Error>
      do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
      self.finishPending(id, outcome)
    }
    pendingCalls[id]?.task = task
  }

  /// Records a call in flight (its resolvers, and a timer for its time limit); returns its id.
  private func addPending(
    label: String, resolve: JSObjectRef, reject: JSObjectRef, callback: JSObjectRef?, timeLimit: Double?
  ) -> Int {
    let id = nextCallID
    nextCallID += 1
    let pending = PendingCall(label: label, resolve: resolve, reject: reject, callback: callback, context: js.ref)
    pendingCalls[id] = pending
    if let timeLimit {
      pending.timer = loop.addTimer(delay: UInt64(timeLimit * 1e9), interval: nil, keepsAlive: false) {
        [unowned self] in
        guard let call = self.pendingCalls[id] else { return }
        call.cancel()
        self.finishPending(
          id, .failure(BridgeError(.timeout, "did not finish within its time limit of \(timeLimit.formattedSeconds)s")))
      }
    }
    return id
  }

  private func finishPending(_ id: Int, _ outcome: Result<JSONValue, any Error>) {
    guard let pending = pendingCalls.removeValue(forKey: id) else { return }
    if let timer = pending.timer { loop.cancelTimer(timer) }
    defer { pending.release(context: js.ref) }
    guard exitCode == nil else { return }
    switch outcome {
    case .success(let value):
      js.settle(pending.resolve, js.value(value))
    case .failure(let error):
      reject(pending.reject, with: bridgeError(from: error), label: pending.label)
    }
    afterCallback()
  }

  /// Rejects through `reject` with an `NBridgeError` whose message starts with the call's label.
  func reject(_ reject: JSObjectRef, with error: BridgeError, label: String) {
    js.settle(reject, makeError(error.code, "\(label): \(error.message)"))
  }

  /// A JS `NBridgeError` with `code` and `message`.
  func makeError(_ code: ErrorCode, _ message: String) -> JSValueRef {
    (try? js.call(makeErrorFunction, [js.string(code.rawValue), js.string(message)])) ?? JSValueMakeUndefined(js.ref)
  }
}
