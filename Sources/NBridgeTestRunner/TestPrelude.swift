/// The test framework `nbridge test` evaluates before each test file (`JS/test-prelude.js`): `test`,
/// `assert` and the runner. A function of `(global, native, hooks)` returning
/// `run(firstNumber, timeoutMs, file, setupError, ready)`; `ready` is a module test file's
/// evaluation (its tests are registered when it settles).
package let testPreludeSource: String = {
  var text = String(decoding: EmbeddedFiles.test_prelude_js, as: UTF8.self)
  while let last = text.last, last == "\n" || last == " " || last == ";" { text.removeLast() }
  return text
}()
