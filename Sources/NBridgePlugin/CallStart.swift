/// How the calls starting now reached the runtime: on their own, or together with the other
/// calls a script made in the same turn (`native.startAll`: a burst of `storage.set`s). A plugin
/// that groups work may do a lone call's at once and a group's together at the end of the turn.
@BridgeActor
package enum CallStart {
  /// Whether the calls starting now started together with others (set by the runtime around them).
  package static var together = false
}
