import CJavaScriptCore
import Glibc
import NBridgePlugin

/// What plugins reach through their `PluginContext`.
extension Runtime: PluginHost {
  public func emit(service: String, event: String, payload: JSONValue) {
    guard exitCode == nil, let sid = slots.firstIndex(where: { $0.definition.service == service }) else { return }
    guard (slots[sid].listenerCounts[event] ?? 0) > 0 else { return }
    let coalesces = slots[sid].events.contains { $0.name == event && $0.coalescesWhileSuspended }
    deliverToJS(coalescing: coalesces ? "\(sid):\(event)" : nil) { [weak self] in
      guard let self, self.exitCode == nil, (self.slots[sid].listenerCounts[event] ?? 0) > 0 else { return }
      self.deliverEvent(sid: sid, event: event, payload: payload)
    }
  }

  private func deliverEvent(sid: Int, event: String, payload: JSONValue) {
    if let page {
      page.evaluateInPage("__nbridgeEvent(\(sid), \(JSONValue.string(event).jsonText), \(payload.jsonText))")
      return
    }
    do {
      try js.call(emitFunction, [JSValueMakeNumber(js.ref, Double(sid)), js.string(event), js.value(payload)])
    } catch {
      reportUncaught(error.value)
    }
    afterCallback()
  }

  public func listenerCount(service: String, event: String) -> Int {
    slots.first { $0.definition.service == service }?.listenerCounts[event] ?? 0
  }

  public func holdRun(reason: String) -> Int { loop.hold(reason) }

  public func releaseRun(_ token: Int) { loop.release(token) }

  public func addTimer(after delay: Duration, repeating: Duration?, _ body: @escaping @BridgeActor () -> Void) -> Int {
    loop.addTimer(delay: max(delay, .zero), interval: repeating.map { max($0, .milliseconds(1)) }, keepsAlive: false) {
      [unowned self] in
      body()
      self.afterCallback()
    }
  }

  public func cancelTimer(_ id: Int) { loop.cancelTimer(id) }

  public var now: LoopInstant { loop.clock.now() }

  public var wallClockMilliseconds: Int64 {
    if loop.clock.passesByItself { return ISO8601.currentMilliseconds() }
    let elapsed = (loop.clock.now() - timeOrigin.instant).wholeNanoseconds / 1_000_000
    return Int64(timeOrigin.wallMilliseconds) + Int64(clamping: elapsed)
  }

  public func watchReadable(_ fd: Int32, _ body: @escaping @BridgeActor () -> Void) -> Int {
    loop.watch(fd) { [unowned self] in
      body()
      self.afterCallback()
    }
  }

  public func cancelWatch(_ id: Int) { loop.cancelWatch(id) }

  public func requestExit(code: Int32) { requestExit(code) }

  public func isAllowed(service: String) -> Bool {
    guard let slot = slots.first(where: { $0.definition.service == service }) else { return false }
    return slot.allowed
  }

  public var glibMainContext: OpaquePointer? { loop.glib }

  public var window: (any WindowHost)? { page as? any WindowHost }

  public func clearRuntimeCaches() -> [String] { clearExtensionCaches() }

  /// The control socket's ops are a table from op name to handler, which the socket
  /// (NBridgeControl, an extension) answers from.
  public func handleControl(op: String, _ handler: @escaping ControlHandler) {
    if let index = controlHandlers.firstIndex(where: { $0.op == op }) {
      controlHandlers[index].handler = handler
    } else {
      controlHandlers.append((op, handler))
    }
  }

  /// Records a listener count change from JS; keeps the run alive for events that wait on the outside world.
  func listenersChanged(slot: ServiceSlot, event: String, count: Int) {
    let before = slot.listenerCounts[event] ?? 0
    slot.listenerCounts[event] = count
    guard before != count else { return }
    if let spec = slot.events.first(where: { $0.name == event }), spec.keepsAlive {
      if count > 0, slot.listenerHolds[event] == nil {
        slot.listenerHolds[event] = loop.hold("\(slot.definition.service) '\(event)' listener")
      } else if count == 0, let hold = slot.listenerHolds.removeValue(forKey: event) {
        loop.release(hold)
      }
    }
    activate(slot)
    slot.plugin?.object.listenersChanged(event: event, count: count)
  }
}
