/// Options that read the call's `JSONValue` themselves, without a `Decoder`: for the actions a
/// script calls thousands of times a second (`storage.set`), where the keyed container, the coding
/// keys and the generic calls of `Decodable` cost more than the action's own work. An action with a
/// `Reply` whose options type conforms uses `init(options:)` (`Action`'s overload for it).
///
/// `init(from:)` stays: it gives the options' shape (`Shape(decoding:)`, checked against the
/// declared one), so both initializers must read the same fields in the same order and throw the
/// same errors, which is easiest when both hand the fields to one initializer that checks them.
package protocol OptionsFromJSON: Decodable {
  /// Reads the options from the call's value (an object, or null when a caller sent none).
  init(options: JSONValue) throws
}
