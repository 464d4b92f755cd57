import CJavaScriptCore
import NBridgePlugin

/// `setTimeout`/`setInterval` on the loop's timer queue.
extension Runtime {
  /// A JS timer; `keepsAlive: false` for one that must not hold the run open by itself
  /// (`AbortSignal.timeout`).
  func addJSTimer(_ function: JSObjectRef, milliseconds: Double, repeats: Bool, keepsAlive: Bool) -> Int {
    let held = ScriptValue(function, in: js)
    let delay = Duration(clampingMilliseconds: milliseconds)
    let box = LoopBox(0)
    let id = loop.addTimer(delay: delay, interval: repeats ? max(delay, .milliseconds(1)) : nil, keepsAlive: keepsAlive) {
      [unowned self] in
      if !repeats { self.jsTimers[box.value] = nil }
      do { try self.js.call(held.ref, []) } catch let error as JSException { self.reportUncaught(error.value) } catch {}
      self.afterCallback()
    }
    box.value = id
    jsTimers[id] = held
    return id
  }

  /// Cancels JS timer `id` (an id of no JS timer is ignored).
  func clearJSTimer(_ id: Int) {
    guard jsTimers.removeValue(forKey: id) != nil else { return }
    loop.cancelTimer(id)
  }
}
