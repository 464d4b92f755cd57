import CJavaScriptCore
import NBridgeModuleSyntax
import NBridgePlugin

/// Where an extension's `transformSource` hook sees a user's script.
package enum SourceStage: Sendable {
  /// The run's entry file as read, before any extension may claim it (a TypeScript file's types erased).
  case entry
  /// A script about to be evaluated: the entry, a CommonJS module, a `load()`ed file, an
  /// evaluation (its `import()` routed to the module loader).
  case script
}

/// An extension's `transformSource` hook: its state, the host, the stage, a script's text and URL.
package typealias SourceTransform<State> = @BridgeActor @Sendable (State, ExtensionHost, SourceStage, String, String)
  throws(ModuleSyntaxError) -> (String, [[Int]])

/// What the core does with a user's script: it runs what the extensions' `transformSource`
/// hooks hand back (types erased, `import()` routed by NBridgeModules), tells the stack
/// formatting the widths their rewrites inserted, and hands the entry to the extension that claims it.
extension Runtime {
  /// `source` named `url` as the extensions' `transformSource` hooks hand it back at `stage`,
  /// with the columns their changes inserted; throws the syntax error that refuses it.
  func transformed(_ source: String, url: String, at stage: SourceStage) throws(ModuleSyntaxError) -> (String, [[Int]]) {
    var text = source
    var shifts: [[Int]] = []
    for (index, registered) in configuration.extensions.enumerated() {
      guard let transform = registered.hooks.transformSource else { continue }
      let (changed, inserted) = try transform(extensionStates[index], ExtensionHost(runtime: self), stage, text, url)
      text = changed
      shifts += inserted
    }
    return (text, shifts)
  }

  /// A script's source as it runs (`SourceStage.script`); the columns inserted wait in `columnShifts[url]`.
  func runnableScript(_ source: String, url: String) -> String {
    guard let (text, shifts) = try? transformed(source, url: url, at: .script) else { return source }
    if !shifts.isEmpty { columnShifts[url] = shifts }
    return text
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

  /// Runs the entry `path` (its text `source`, runnable) that the extension numbered `claim`
  /// claimed; a load error throws, and a rejection of the Promise it answers is uncaught.
  func runClaimedEntry(_ claim: Int, path: String, source: String) throws(JSException) {
    guard let promise = try startClaimedEntry(claim, path: path, source: source), let object = js.object(promise),
      let then = js.object(js.property(object, "then")), let report = js.property(nativeObject!.value, "reportError")
    else { return }
    var exception: JSValueRef?
    let arguments: [JSValueRef?] = [JSValueMakeUndefined(js.ref), report]
    _ = arguments.withUnsafeBufferPointer { JSObjectCallAsFunction(js.ref, then, object, 2, $0.baseAddress, &exception) }
    if let exception { throw JSException(value: exception) }
  }
}

extension Runtime {
  /// Runs the entry `path` (its text `source`, runnable unless `refused`; claimed by the
  /// extension numbered `claim`, if any) and hands what it threw and a claimed entry's Promise
  /// to the extension numbered `taker` (`RuntimeExtension.Hooks.entryRan`) instead of reporting them.
  func handEntry(to taker: Int, source: String, refused: ModuleSyntaxError?, claim: Int?, path: String) {
    var thrown: JSValueRef?
    var ready: JSValueRef?
    do throws(JSException) {
      if let refused {
        throw JSException(value: syntaxError(refused.message, path: path, line: refused.line, column: refused.column))
      }
      if let claim {
        ready = try startClaimedEntry(claim, path: path, source: source)
      } else {
        try evaluateAllowingTopLevelAwait(source, url: path)
      }
    } catch {
      thrown = error.value
    }
    unhandled.removeAll()
    configuration.extensions[taker].hooks.entryRan?(
      extensionStates[taker], ExtensionHost(runtime: self), thrown.map { ScriptValue($0, in: js) },
      ready.map { ScriptValue($0, in: js) })
  }
}
