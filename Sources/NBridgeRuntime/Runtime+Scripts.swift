import CJavaScriptCore
import NBridgeModuleSyntax
import NBridgePlugin

/// Where an extension's `transformSource` hook sees a user's script.
package enum SourceStage: Sendable {
  /// The run's entry file as read, before any extension may claim it (a TypeScript file's types erased).
  case entry
  /// A script about to be evaluated: a CommonJS module, a `load()`ed file, an evaluation (its
  /// `import()` routed to the module loader).
  case script
  /// The entry about to be evaluated as a script (no extension claimed it): as `script`, and
  /// NBridgeModules lets it use top-level `await`.
  case entryScript
}

/// An extension's `transformSource` hook: its state, the host, the stage, a script's text and URL.
package typealias SourceTransform<State> = @BridgeActor @Sendable (State, ExtensionHost, SourceStage, String, String)
  throws(ModuleSyntaxError) -> (String, [[Int]])

/// What the core does with a user's script: it runs what the extensions' `transformSource`
/// hooks hand back (types erased, `import()` routed and top-level `await` wrapped by
/// NBridgeModules), tells the stack formatting the widths their rewrites inserted, and hands the
/// entry to the extension that claims it.
extension Runtime {
  /// `source` named `url` as the extensions' `transformSource` hooks hand it back at `stage`,
  /// with the columns their changes inserted; throws the syntax error that refuses it.
  func transformed(_ source: String, url: String, at stage: SourceStage) throws(ModuleSyntaxError) -> (String, [[Int]]) {
    var text = source
    var shifts: [[Int]] = []
    for (index, registered) in configuration.extensions.enumerated() {
      guard let transform = registered.hooks.transformSource else { continue }
      let (changed, inserted) = try transform(extensionStates[index], extensionHost, stage, text, url)
      text = changed
      shifts += inserted
    }
    return (text, shifts)
  }

  /// A script's source as it runs (`SourceStage.script`, or `.entryScript`), and the columns the change inserted.
  func runnableScript(_ source: String, url: String, at stage: SourceStage = .script) -> (String, [[Int]]) {
    (try? transformed(source, url: url, at: stage)) ?? (source, [])
  }

  /// Tells the prelude's stack formatting the widths a rewrite inserted into `url`.
  func registerColumnShifts(_ url: String, _ shifts: [[Int]]) {
    guard !shifts.isEmpty else { return }
    let value = js.value(.array(shifts.map { .array($0.map { .number(Double($0)) }) }))
    _ = try? callHook("shiftColumns", [js.string(url), value])
  }

  /// A JS `SyntaxError` at `path:line` (the error report shows the line and a caret at `column`).
  func syntaxError(_ message: String, path: String, line: Int, column: Int) -> JSValueRef {
    var exception: JSValueRef?
    var argument: JSValueRef? = js.string(message)
    let constructor = js.object(js.property(js.global, "SyntaxError"))!
    let error = JSObjectCallAsConstructor(js.ref, constructor, 1, &argument, &exception)!
    js.setProperty(error, "line", JSValueMakeNumber(js.ref, Double(line)))
    js.setProperty(error, "sourceURL", js.string(path))
    js.setProperty(error, "nbridgeColumn", JSValueMakeNumber(js.ref, Double(column)))
    return error
  }

  /// The entry's text `text` as it runs (`SourceStage.entry`), and the refusal, if any.
  func runnableEntry(_ text: String, path: String) -> (source: String, refused: ModuleSyntaxError?) {
    do throws(ModuleSyntaxError) {
      return (try transformed(text, url: path, at: .entry).0, nil)
    } catch {
      return ("", error)
    }
  }

  /// Runs the entry `path` (its text `source`, runnable unless `refused`): the extension
  /// numbered `claim` runs it and answers its Promise, if any, else it is evaluated. A load
  /// error, and a refused entry's SyntaxError, throw.
  func runEntry(_ source: String, refused: ModuleSyntaxError?, claim: Int?, path: String) throws(JSException)
    -> JSValueRef?
  {
    if let refused {
      throw JSException(value: syntaxError(refused.message, path: path, line: refused.line, column: refused.column))
    }
    if let claim { return try startClaimedEntry(claim, path: path, source: source) }
    let (script, shifts) = runnableScript(source, url: path, at: .entryScript)
    registerColumnShifts(path, shifts)
    try js.evaluate(script, url: path)
    return nil
  }

  /// Reports a rejection of `promise` (a claimed entry's) as uncaught.
  func reportRejection(of promise: JSValueRef) throws(JSException) {
    guard let object = js.object(promise), let then = js.object(js.property(object, "then")),
      let report = js.property(nativeObject!.ref, "reportError")
    else { return }
    try js.call(then, this: object, [JSValueMakeUndefined(js.ref), report])
  }

  /// Runs the entry as `runEntry` does and hands what it threw and a claimed entry's Promise to
  /// the extension numbered `taker` (`RuntimeExtension.Hooks.entryRan`) instead of reporting them.
  func handEntry(to taker: Int, source: String, refused: ModuleSyntaxError?, claim: Int?, path: String) {
    var thrown: JSValueRef?
    var ready: JSValueRef?
    do throws(JSException) {
      ready = try runEntry(source, refused: refused, claim: claim, path: path)
    } catch {
      thrown = error.value
    }
    unhandled.removeAll()
    configuration.extensions[taker].hooks.entryRan?(
      extensionStates[taker], extensionHost, thrown.map { ScriptValue($0, in: js) },
      ready.map { ScriptValue($0, in: js) })
  }
}
