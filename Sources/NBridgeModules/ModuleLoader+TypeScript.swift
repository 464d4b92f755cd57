import NBridgeModuleSyntax
import NBridgeRuntime

/// TypeScript files (`.ts`, `.mts`, `.cts`): their types erased (`TypeStripper`) where a file's
/// text is read, so the loader, `require()` and stack traces see JavaScript on the `.ts` file's
/// own lines and columns; the original text is what error excerpts show.
extension ModuleLoader {
  /// `text` of the file `path` as it runs: types erased when `path` is TypeScript. Throws the
  /// erasure's refusal as a SyntaxError at the `.ts` file's line and column.
  func runnableSource(_ text: String, path: String, _ host: ExtensionHost) throws(ThrownValue) -> String {
    guard TypeStripper.isTypeScript(path) else { return text }
    do throws(ModuleSyntaxError) {
      return try TypeStripper.strip(text)
    } catch {
      host.setSource(text, of: path)
      throw ThrownValue(value: host.syntaxError(error.message, path: path, line: error.line, column: error.column))
    }
  }

  /// UTF-16 `units` of the file `path` as they run (see `runnableSource`).
  func runnableUnits(_ units: [UInt16], path: String, _ host: ExtensionHost) throws(ThrownValue) -> [UInt16] {
    guard TypeStripper.isTypeScript(path) else { return units }
    do throws(ModuleSyntaxError) {
      return try TypeStripper.strip(units: units)
    } catch {
      throw ThrownValue(value: host.syntaxError(error.message, path: path, line: error.line, column: error.column))
    }
  }
}
