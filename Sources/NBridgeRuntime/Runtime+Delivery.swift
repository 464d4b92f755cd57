import NBridgePlugin

/// The delivery gate: every way into JS from outside a JS call (events, call answers, streamed
/// values, an extension's Promise) goes through `deliverToJS`. While the gate is closed (the
/// lifecycle extension closes it when it suspends the app) what comes waits in `heldDeliveries`,
/// in order, and JS timers are frozen; once it is open again, `deliverHeld` hands over what waited
/// (`ExtensionHost+Delivery` opens and closes it).
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
}

/// A way into JS that waits while the delivery gate is closed.
struct HeldDelivery {
  /// Deliveries with the same key are coalesced into the latest.
  var key: String?
  var body: @BridgeActor () -> Void
}
