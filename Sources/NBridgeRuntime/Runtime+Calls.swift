import CJavaScriptCore
import Glibc
import NBridgePlugin

/// The bridge: a JS call of `nbridge.<service>.<action>` reaching a plugin, and its Promise settling.
extension Runtime: ReplyReceiver {
  /// Handles `native.start(code, id, json, callback)`: the call's value when it was answered
  /// before it returned (a sync action's, an error thrown as the JS exception), or the `native`
  /// object when it is answered later by `id` (bridge.js then makes its Promise).
  func start(code: Int, id: Int, json: JSValueRef?, callback: JSObjectRef?) throws(JSException) -> JSValueRef? {
    let answer = startHeadless(code: code, id: id, callback: callback) { readsText throws(BridgeError) in
      guard let json else { return .value(.object(JSONObject())) }
      return readsText ? .text(try js.optionsText(json)) : .value(try js.parseOptions(json))
    }
    guard let answer else { return nativeObject?.ref }
    return try jsValue(answer)
  }

  /// Handles `native.startAll(records)`: starts, in order, the calls bridge.js queued during one
  /// turn (actions that start at the end of the turn, `ActionInfo.startsAtTurnEnd`), read from
  /// one string: each call's code (sid * 65536 + aid), id and options' JSON text, one a line
  /// (JSON.stringify's text holds no line break). One entry into the runtime and one string for
  /// them all; each call then starts as `start`'s does, and one answered at once (an error)
  /// settles its Promise by id, as a call answered later does.
  func startAll(_ records: JSValueRef) {
    guard let s = JSValueToStringCopy(js.ref, records, nil) else { return }
    var text = String(jsString: s)
    JSStringRelease(s)
    let outer = CallStart.together
    CallStart.together = true
    defer { CallStart.together = outer }
    text.withUTF8 { bytes in
      guard let base = bytes.baseAddress else { return }
      var at = 0
      // The next line's bytes (memchr finds its end a word at a time).
      func line() -> UnsafeBufferPointer<UInt8> {
        let start = at
        let end = memchr(base + start, 0x0A, bytes.count - start).map {
          UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - base
        }
        at = end.map { $0 + 1 } ?? bytes.count
        return UnsafeBufferPointer(rebasing: bytes[start..<(end ?? bytes.count)])
      }
      func number(_ digits: UnsafeBufferPointer<UInt8>) -> Int {
        var value = 0
        for byte in digits {
          guard byte &- 0x30 < 10 else { return -1 }
          value = value &* 10 &+ Int(byte &- 0x30)
        }
        return digits.isEmpty ? -1 : value
      }
      while at < bytes.count {
        let code = number(line())
        let id = number(line())
        let json = Substring(String(decoding: line(), as: UTF8.self))
        callsStartedTogether += 1
        guard id >= 0 else { continue }
        let answer = startHeadless(code: code, id: id, callback: nil) { readsText throws(BridgeError) in
          try CallOptions(text: json, readsText: readsText)
        }
        if let answer { settlePromise(id, answer) }
      }
    }
  }

  /// Starts headless call `id` (`startCall`); returns what it was answered with before this
  /// returned, or nil when it is answered later by id.
  private func startHeadless(
    code: Int, id: Int, callback: JSObjectRef?, options: (_ readsText: Bool) throws(BridgeError) -> CallOptions
  ) -> CallAnswer? {
    let outer = startingCall
    startingCall = (id, nil)
    startCall(code: code, .call(id), callback: callback, sink: sink(callback), options: options)
    let answer = startingCall?.answer
    startingCall = outer
    return answer
  }

  /// The one way a call starts, whoever makes it (a script's `native.start` or `startAll`, a
  /// window's page, the window): the action numbered `code` (sid * 65536 + aid, the order of
  /// `bridgeTables()`) is refused without the app's permission or, with `permissions` (a remote
  /// page's), outside them; then its options are read (`options`, told whether the action
  /// reads them as text) and it is dispatched. It settles through `settlement` now or later;
  /// returns the id of its slot in `callSlots` while it runs (nil when it settled at once).
  @discardableResult
  func startCall(
    code: Int, _ settlement: Settlement, permissions: Set<String>? = nil, callback: JSObjectRef?,
    sink: (@BridgeActor (JSONValue) -> Void)?, options read: (_ readsText: Bool) throws(BridgeError) -> CallOptions
  ) -> Int? {
    let sid = code >> 16
    let aid = code & 0xFFFF
    // The slot and its actions are read once (a read of the lazy list is a call and a retain).
    guard code >= 0, slots.indices.contains(sid), case let slot = slots[sid], case let actions = slot.actions,
      actions.indices.contains(aid)
    else {
      settle(settlement, .failure(BridgeError(.invalidActionName, "no action number \(code)")), label: nil)
      return nil
    }
    let options: CallOptions
    do throws(BridgeError) {
      if let refusal = refusal(slot, aid, within: permissions) { throw refusal }
      options = try read(actions[aid].readsOptionsText)
    } catch {
      settle(settlement, .failure(error), label: slot.labels[aid])
      return nil
    }
    return dispatch(slot, aid, options, settlement, callback: callback, sink: sink)
  }

  /// Why a call to `slot`'s action `aid` is refused before any work (permission), or nil.
  /// `within`: the permissions of a remote page's origin (`remote` in the manifest), a subset
  /// of the app's; nil for the app's own code.
  private func refusal(_ slot: ServiceSlot, _ aid: Int, within permissions: Set<String>?) -> BridgeError? {
    // The names are filled in only for a refusal: an allowed call builds nothing.
    func names() -> [String: String] { ["service": slot.definition.service, "permission": slot.definition.permission] }
    if let permissions, !permissions.contains(slot.definition.permission) {
      return BridgeError(.permissionDenied, BridgeMessages.fill(BridgeMessages.remotePermissionDenied, names()))
    }
    guard !slot.allowed, !slot.actions[aid].answersWithoutPermission else { return nil }
    return BridgeError(.permissionDenied, BridgeMessages.fill(BridgeMessages.permissionDenied, names()))
  }

  /// Starts `slot`'s action `aid` with `options`; it settles through `settlement` now or later.
  /// Returns the id of its slot in `callSlots` while it runs (nil when it settled at once).
  private func dispatch(
    _ slot: ServiceSlot, _ aid: Int, _ options: CallOptions, _ settlement: Settlement, callback: JSObjectRef?,
    sink: (@BridgeActor (JSONValue) -> Void)?
  ) -> Int? {
    let action = slot.actions[aid]
    let label = slot.labels[aid]
    activate(slot)
    // Settles the call now with what `body` answers (a sync or bytes action), or with what it throws.
    func answer(_ body: () throws -> CallAnswer) -> Int? {
      do {
        settle(settlement, try body(), label: label)
      } catch {
        settle(settlement, .failure(bridgeError(from: error)), label: label)
      }
      return nil
    }
    // Opens the call's slot, which the action answers later through its `Reply`; what `body` throws rejects.
    func replying(takesText: Bool, _ body: (AnyReply) throws -> Void) -> Int {
      let (id, callSlot) = openCallSlot(label: label, settlement, callback: callback, timeLimit: action.timeLimit)
      let reply = AnyReply(replyRoute, id: id, takesText: takesText)
      callSlot.reply = reply
      do { try body(reply) } catch { reply.settle(.failure(error)) }
      return id
    }
    switch slot.state {
    case .ready(let plugin):
      let call = plainCall(slot, aid, sink)
      switch plugin.invocations[aid] {
      case .sync(let body): return answer { .success(try body(options.value, call)) }
      case .bytes(let body): return answer { .bytes(try body(options.value, call).takeStore()) }
      case .async(let body):
        return startAsync(label: label, settlement, callback: callback, timeLimit: action.timeLimit) {
          try await body(options.value, call)
        }
      case .deferred(let body): return replying(takesText: false) { try body(options.value, call, $0) }
      case .deferredText(let body): return replying(takesText: true) { try body(try options.text(), call, $0) }
      }
    case .starting(let start):
      // The call waits in a slot of its own (its time limit runs from now) until the plugin has
      // started, then goes the way every call goes, answering that slot.
      let (id, callSlot) = openCallSlot(label: label, settlement, callback: callback, timeLimit: action.timeLimit)
      callSlot.task = Task.immediate { @BridgeActor [weak self] in
        await start.value
        guard let self, let waiting = self.callSlots[id] else { return }
        if let going = self.dispatch(slot, aid, options, .slot(id), callback: callback, sink: sink) {
          waiting.goesOnAs = self.callSlots[going]
        }
      }
      return id
    case .failed(let error):
      settle(settlement, .failure(error), label: label)
    case .idle:
      settle(settlement, .failure(BridgeError(.unknownError, "the plugin did not start")), label: label)
    }
    return nil
  }

  /// The `Call` of an action: without a sink, one object per action, made once (a `Call` holds
  /// nothing of one call but its sink), rather than one per call.
  private func plainCall(_ slot: ServiceSlot, _ aid: Int, _ sink: (@BridgeActor (JSONValue) -> Void)?) -> Call {
    if sink == nil, let reused = slot.plainCalls[aid] { return reused }
    let action = slot.actions[aid].name
    let call = Call(service: slot.definition.service, action: action, context: slot.context!, sink: sink)
    if sink == nil { slot.plainCalls[aid] = call }
    return call
  }

  /// Settles a call: resolves or rejects its Promise (an error's message prefixed with the
  /// label, when there is one), calls its handler, or closes the slot it waited in. A headless
  /// call answered while `native.start` is still starting it returns its answer from there.
  func settle(_ settlement: Settlement, _ answer: CallAnswer, label: String?) {
    switch settlement {
    case .call(let id):
      var answer = answer
      if let label, case .outcome(.failure(let error)) = answer {
        answer = .failure(BridgeError(error.code, "\(label): \(error.message)"))
      }
      if startingCall?.id == id {
        startingCall?.answer = answer
        return
      }
      settlePromise(id, answer)
    case .handler(let handler):
      handler(
        answer.outcome.mapError { error in label.map { BridgeError(error.code, "\($0): \(error.message)") } ?? error })
    case .slot(let id):
      closeCallSlot(id, answer)
    }
  }

  /// Resolves or rejects headless call `id`'s Promise with `answer` (an error's message as it is).
  private func settlePromise(_ id: Int, _ answer: CallAnswer) {
    guard let (resolve, fail, _) = answerFunctions else { return }
    let number = JSValueMakeNumber(js.ref, Double(id))
    do { js.settle(resolve, number, try jsValue(answer)) } catch { js.settle(fail, number, error.value) }
  }

  /// What a headless call's Promise resolves with: a value, a `Uint8Array` over the bytes, the
  /// value JSON text holds; an error is thrown as its `NBridgeError`.
  private func jsValue(_ answer: CallAnswer) throws(JSException) -> JSValueRef {
    switch answer {
    case .outcome(.success(let value)): return js.value(value)
    case .outcome(.failure(let error)): throw JSException(value: makeError(error.code, error.message))
    case .bytes(let store): return js.uint8Array(adopting: store)
    case .jsonText(let text): return js.value(jsonText: text)
    }
  }

  private func sink(_ callback: JSObjectRef?) -> (@BridgeActor (JSONValue) -> Void)? {
    guard let callback else { return nil }
    // Weak, like the tasks below: a plugin may stream after the run that made the call has ended.
    let held = ScriptValue(callback, in: js)
    return { [weak self] value in
      self?.deliverToJS {
        guard let self, self.exitCode == nil else { return }
        do { try self.js.call(held.ref, [self.js.value(value)]) } catch let error as JSException {
          self.reportUncaught(error.value)
        } catch {}
      }
    }
  }

  /// Runs an action as a task on the loop; it starts inline and settles whenever it returns.
  private func startAsync(
    label: String, _ settlement: Settlement, callback: JSObjectRef?, timeLimit: Double?,
    _ body: @escaping @BridgeActor () async throws -> JSONValue
  ) -> Int {
    let (id, callSlot) = openCallSlot(label: label, settlement, callback: callback, timeLimit: timeLimit)
    // Weak: an action still running when the run ends (cancelled, say) resumes later, maybe
    // when this runtime is gone; it then has nothing to settle.
    let task = Task.immediate { @BridgeActor [weak self] in
      let outcome: Result<JSONValue, any Error>
      do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
      self?.replied(id, outcome)
    }
    callSlot.task = task
    return id
  }

  /// Opens a slot for a call in flight (its resolvers, and a timer for its time limit); returns its id and the slot.
  private func openCallSlot(
    label: String, _ settlement: Settlement, callback: JSObjectRef?, timeLimit: Double?
  ) -> (id: Int, slot: CallSlot) {
    let id = nextCallID
    nextCallID += 1
    let callSlot = CallSlot(label: label, settlement: settlement, callback: callback, context: { self.js })
    callSlots[id] = callSlot
    if let timeLimit {
      callSlot.timer = loop.addTimer(delay: Duration(clampingSeconds: timeLimit), interval: nil, keepsAlive: false) {
        [unowned self] in
        guard let call = self.callSlots[id] else { return }
        call.cancel()
        self.closeCallSlot(
          id, .failure(BridgeError(.timeout, "did not finish within its time limit of \(timeLimit.formattedSeconds)s")))
      }
    }
    return (id, callSlot)
  }

  /// Closes call slot `id` with `answer`: returned from `native.start` when the call is still
  /// being started, held while answers are batched (`AnswerBatch`), else settled in JS.
  func closeCallSlot(_ id: Int, _ answer: CallAnswer) {
    guard let callSlot = callSlots.removeValue(forKey: id) else { return }
    if let timer = callSlot.timer { loop.cancelTimer(timer) }
    guard exitCode == nil else { return }
    if case .call(let jsID) = callSlot.settlement, startingCall?.id == jsID {
      // Answered inside `native.start`: it returns the answer, and JS makes no Promise to settle.
      return settle(callSlot.settlement, answer, label: callSlot.label)
    }
    if AnswerBatch.depth > 0, !deliveriesHeld {
      // One access to `heldAnswers` (each is checked for exclusivity at run time).
      func hold(_ held: inout [(CallSlot, CallAnswer)]) -> Bool {
        held.append((callSlot, answer))
        return held.count == 1
      }
      if hold(&heldAnswers) { AnswerBatch.onEnd { [weak self] in self?.deliverHeldAnswers() } }
      return
    }
    settleInItsTurn(callSlot, answer)
  }

  /// Settles `callSlot` with `answer` in a callback of its own (`deliverToJS`: later, while the delivery gate is closed).
  private func settleInItsTurn(_ callSlot: CallSlot, _ answer: CallAnswer) {
    deliverToJS { [weak self] in
      guard let self, self.exitCode == nil else { return }
      self.settle(callSlot.settlement, answer, label: callSlot.label)
      self.afterCallback()
    }
  }

  /// The answer to call slot `id` of a `Reply` (`AnyReply`) or an async action.
  package func replied(_ id: Int, _ outcome: Result<JSONValue, any Error>) {
    closeCallSlot(id, .outcome(outcome.mapError { bridgeError(from: $0) }))
  }

  /// A `Reply`'s answer to call slot `id` as a value's JSON text.
  package func replied(_ id: Int, jsonText: String) { closeCallSlot(id, .jsonText(jsonText)) }

  /// Settles the answers held during an `AnswerBatch`, in order: Promises resolved with a value
  /// that needs no allocation (null, a boolean, a number) go to JS in one call of the
  /// prelude's `answerAll`; any other answer is settled on its own, after those before it.
  func deliverHeldAnswers() {
    var held: [(CallSlot, CallAnswer)] = []
    swap(&held, &heldAnswers)
    // The next batch reuses this one's buffer: a burst's answers are not regrown from empty each time.
    defer {
      held.removeAll(keepingCapacity: true)
      if heldAnswers.isEmpty { swap(&held, &heldAnswers) }
    }
    guard exitCode == nil else { return }
    if deliveriesHeld {
      for (callSlot, answer) in held { settleInItsTurn(callSlot, answer) }
      return
    }
    // Only values JSC makes without allocating wait in this Swift array: the GC does not see it.
    var list: [JSValueRef?] = []
    list.reserveCapacity(held.count * 2)
    // Read once: each read of the lazy property is a call, a retain and an exclusivity check.
    let js = self.js
    for (callSlot, answer) in held {
      if case .call(let id) = callSlot.settlement, case .outcome(.success(let value)) = answer,
        let immediate = js.immediateValue(value)
      {
        list.append(JSValueMakeNumber(js.ref, Double(id)))
        list.append(immediate)
        continue
      }
      answerAll(&list)
      settle(callSlot.settlement, answer, label: callSlot.label)
    }
    answerAll(&list)
    afterCallback()
  }

  /// Resolves each call of `list` (id, value, id, value...) with the value after it, in one entry into JS.
  private func answerAll(_ list: inout [JSValueRef?]) {
    guard !list.isEmpty, let (answer, _, all) = answerFunctions else { return }
    if list.count == 2 {
      js.settle(answer, list[0], list[1])
    } else {
      let array = list.withUnsafeBufferPointer { JSObjectMakeArray(js.ref, $0.count, $0.baseAddress, nil) }
      js.settle(all, array ?? JSValueMakeUndefined(js.ref))
    }
    list.removeAll(keepingCapacity: true)
  }

  /// A JS `NBridgeError` with `code` and `message`.
  func makeError(_ code: ErrorCode, _ message: String) -> JSValueRef {
    (try? js.call(makeErrorFunction, [js.string(code.rawValue), js.string(message)])) ?? JSValueMakeUndefined(js.ref)
  }
}
