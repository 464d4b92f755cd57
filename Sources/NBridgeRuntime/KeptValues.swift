import CJavaScriptCore

/// JS values made one after another and kept from the garbage collector while Swift memory
/// holds them (JavaScriptCore scans the stack, not a Swift array): each is protected when
/// added and all are unprotected when this ends, so no code pairs the calls by hand.
struct KeptValues: ~Copyable {
  private let context: JSContextRef
  /// The values in the order added.
  private(set) var values: [JSValueRef?] = []

  /// Nothing kept yet, in `context`.
  init(in context: JSContextRef) { self.context = context }

  /// Keeps `value` (a null is held as is) until this ends.
  mutating func append(_ value: JSValueRef?) {
    if let value { JSValueProtect(context, value) }
    values.append(value)
  }

  deinit {
    for case let value? in values { JSValueUnprotect(context, value) }
  }
}
