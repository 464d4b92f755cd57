import CJavaScriptCore
import NBridgePlugin

/// A native call whose Promise is not settled yet: its resolvers, kept from the GC, and its task or reply.
@BridgeActor
final class PendingCall {
  let label: String
  let resolve: JSObjectRef
  let reject: JSObjectRef
  let callback: JSObjectRef?
  var task: Task<Void, Never>?
  /// The reply of a `Reply` action; weak, so a reply the plugin drops is seen (and rejects).
  weak var reply: PendingReply?
  var timer: Int?

  init(label: String, resolve: JSObjectRef, reject: JSObjectRef, callback: JSObjectRef?, context: JSGlobalContextRef) {
    self.label = label
    self.resolve = resolve
    self.reject = reject
    self.callback = callback
    JSValueProtect(context, resolve)
    JSValueProtect(context, reject)
    if let callback { JSValueProtect(context, callback) }
  }

  func release(context: JSGlobalContextRef) {
    JSValueUnprotect(context, resolve)
    JSValueUnprotect(context, reject)
    if let callback { JSValueUnprotect(context, callback) }
  }

  func cancel() {
    task?.cancel()
    reply?.cancel()
  }
}
