import NBridgePlugin

/// The delivery gate: every way into JS from outside a JS call (events, call answers, streamed
/// values, an extension's Promise) goes through `deliverToJS`. While the gate is closed (the
/// lifecycle extension closes it when it suspends the app) what comes waits in `heldDeliveries`,
/// in order, and JS timers are frozen; once it is open again, `deliverHeld` hands over what waited.
extension Runtime {
  /// Runs `body` (which enters JS) now, or, while the gate is closed, once it is open and
  /// `deliverHeld` runs; a `key` replaces a waiting delivery with the same key (a pasteboard
  /// `change` is coalesced).
  func deliverToJS(coalescing key: String? = nil, _ body: @escaping @BridgeActor () -> Void) {
    // Answers held in an AnswerBatch were given before this: they reach JS first.
    if !heldAnswers.isEmpty { deliverHeldAnswers() }
    guard deliveriesHeld else { return body() }
    if let key, let index = heldDeliveries.firstIndex(where: { $0.key == key }) {
      heldDeliveries[index].body = body
      return
    }
    heldDeliveries.append(HeldDelivery(key: key, body: body))
  }

  /// Closes the gate: JS timers are frozen, and what comes for JS waits.
  func holdDeliveries() {
    deliveriesHeld = true
    loop.jsTimersFrozen = true
  }

  /// Opens the gate: JS timers run again, and what comes for JS goes in at once; what waited
  /// stays until `deliverHeld`. False when the gate was open.
  @discardableResult
  func openDeliveries() -> Bool {
    guard deliveriesHeld else { return false }
    deliveriesHeld = false
    loop.jsTimersFrozen = false
    return true
  }

  /// Delivers, in order, what waited while the gate was closed (until it closes again).
  func deliverHeld() {
    while !deliveriesHeld, exitCode == nil, !heldDeliveries.isEmpty {
      let next = heldDeliveries.removeFirst()
      next.body()
    }
  }
}

/// A way into JS that waits while the delivery gate is closed.
struct HeldDelivery {
  /// Deliveries with the same key are coalesced into the latest.
  var key: String?
  var body: @BridgeActor () -> Void
}
