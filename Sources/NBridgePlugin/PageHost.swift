/// What the runtime asks of a window showing the app's page (`nbridge app`): the page is the
/// run's JS side, so events, lifecycle moves and suspension reach it as script (NBridgeWindow's
/// page glue defines the functions these scripts call).
@BridgeActor
package protocol PageHost: AnyObject {
  /// Evaluates `script` in the page's top frame; its result is not needed.
  func evaluateInPage(_ script: String)
}
