import CJavaScriptCore
import NBridgeModuleSyntax
import NBridgePlugin

/// What the core does to a user's script before it runs: `import()` routed to the module
/// loader (an extension), the widths a rewrite inserted told to the stack formatting, a
/// TypeScript entry's types erased, and the entry handed to the extension that claims it.
extension Runtime {
  /// A script's source with `import(...)` routed to the loader, relative to the script's file.
  func scriptWithDynamicImports(_ source: String, url: String) -> String {
    let call = "$nbridge$import(" + jsonQuoted(url) + ","
    guard let (rewritten, shifts) = ScriptSyntax.rewriteDynamicImports(source, replacement: call) else { return source }
    columnShifts[url] = shifts
    return rewritten
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

  /// The entry's text `text` as it runs (types erased from a TypeScript file), and the
  /// erasure's refusal, if any.
  func runnableEntry(_ text: String, path: String) -> (source: String, refused: ModuleSyntaxError?) {
    guard TypeStripper.isTypeScript(path) else { return (text, nil) }
    do throws(ModuleSyntaxError) {
      return (try TypeStripper.strip(text), nil)
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

/// `"text"` as a JS string literal.
package func jsonQuoted(_ text: String) -> String {
  var out = "\""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    case "\n": out += "\\n"
    case "\r": out += "\\r"
    case "\u{2028}": out += "\\u2028"
    case "\u{2029}": out += "\\u2029"
    default:
      if scalar.value < 0x20 {
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
  }
  return out + "\""
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
