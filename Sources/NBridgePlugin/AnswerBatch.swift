/// Answers given together: while `run`'s body runs, the runtime may hold the calls' answers and
/// hand them to JavaScript in one go when the outermost `run` ends: one entry into JS for a
/// transaction's thousands of `storage.set`s instead of one each. The order of the answers is
/// kept, and anything else the body delivers to JS (an event) first delivers what is held.
@BridgeActor
package enum AnswerBatch {
  /// How deeply `run`s are nested; answers are held only while it is above zero.
  package private(set) static var depth = 0
  private static var atEnd: [@BridgeActor () -> Void] = []

  /// Runs `body`; the answers it gives reach JS when the outermost `run` ends.
  package static func run(_ body: () -> Void) {
    depth += 1
    body()
    depth -= 1
    guard depth == 0, !atEnd.isEmpty else { return }
    let ends = atEnd
    atEnd = []
    for end in ends { end() }
  }

  /// Calls `deliver` when the outermost `run` ends; only while one runs.
  package static func onEnd(_ deliver: @escaping @BridgeActor () -> Void) {
    precondition(depth > 0, "AnswerBatch.onEnd outside AnswerBatch.run")
    atEnd.append(deliver)
  }
}
