/// Options that read the call's JSON text themselves (`OptionsText`), without a `Decoder` and
/// without a `JSONValue` of the whole options: for the actions a script calls thousands of times
/// a second (`storage.set`), where parsing the options into values, the keyed container, the
/// coding keys and the generic calls of `Decodable` cost more than the action's own work. An
/// action with a `Reply` whose options type conforms uses `init(options:)` (`Action`'s overload
/// for it), and the runtime passes it the options' text as it came from JavaScript.
///
/// `init(from:)` stays: it gives the options' shape (`Shape(decoding:)`, checked against the
/// declared one), so both initializers must read the same fields in the same order and throw the
/// same errors, which is easiest when both hand the fields to one initializer that checks them.
package protocol OptionsFromJSON: Decodable {
  /// Reads the options from the call's JSON text (an object, or `{}` when a caller sent none).
  init(options: OptionsText) throws
}
