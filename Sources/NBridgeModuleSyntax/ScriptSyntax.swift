/// What an entry file is, read from its tokens: a module (a static `import`/`export` at its top
/// level) or a script, and where a script calls `import(...)`.
public enum ScriptSyntax {
  /// Whether `source` holds a static `import` or `export` declaration at its top level. Source
  /// without either word is a script without tokenizing it (what plain scripts pay: one scan).
  public static func isModule(_ source: String) -> Bool {
    guard mentions(source, "import") || mentions(source, "export") else { return false }
    let units = Array(source.utf16)
    guard let tokens = try? Lexer.tokenize(units) else { return false }
    var depth = 0
    for (i, t) in tokens.enumerated() {
      if t.kind == .punctuator {
        let c = units[t.start]
        if t.end - t.start == 1 && (c == 40 || c == 91 || c == 123) { depth += 1 }
        if t.end - t.start == 1 && (c == 41 || c == 93 || c == 125) { depth -= 1 }
        continue
      }
      guard depth == 0, t.kind == .identifier, t.end - t.start == 6 else { continue }
      if i > 0, tokens[i - 1].kind == .punctuator, units[tokens[i - 1].start] == 46 { continue }  // .import
      let word = String(decoding: units[t.start..<t.end], as: UTF16.self)
      if word == "export" { return true }
      if word == "import", i + 1 < tokens.count {
        let next = tokens[i + 1]
        let c = units[next.start]
        if next.kind == .string || next.kind == .identifier || (next.kind == .punctuator && (c == 123 || c == 42)) {
          return true
        }
      }
    }
    return false
  }

  /// Whether the module `source` can run as the body of a strict function, without the loader:
  /// it names none of `import`, `export` and `await` (so it has no imports, exports, `import()`,
  /// `import.meta` or top-level await, and nothing can import it by a static import), opens with
  /// no hashbang and holds nothing a function body reads differently (`arguments`, HTML-like comments).
  public static func runsWithoutLoader(_ source: String) -> Bool {
    !source.hasPrefix("#!")
      && !["import", "export", "await", "arguments", "<!--", "-->"].contains { mentions(source, $0) }
  }

  /// `source` with each `import(` replaced by `replacement` (which opens the call itself, e.g.
  /// `load("file.js",`); nil when it has none.
  /// Returns the inserted widths as `[line, generated column, width]` for stack traces.
  public static func rewriteDynamicImports(_ source: String, replacement: String) -> (String, [[Int]])? {
    guard mentions(source, "import") else { return nil }
    let units = Array(source.utf16)
    guard let tokens = try? Lexer.tokenize(units) else { return nil }
    var out: [UInt16] = []
    var shifts: [[Int]] = []
    var position = 0
    var lineDelta: [Int: Int] = [:]
    let inserted = Array(replacement.utf16)
    for (i, t) in tokens.enumerated() where t.kind == .identifier && t.end - t.start == 6 {
      guard i + 1 < tokens.count, tokens[i + 1].kind == .punctuator, units[tokens[i + 1].start] == 40,
        tokens[i + 1].line == t.line
      else { continue }
      if i > 0, tokens[i - 1].kind == .punctuator, units[tokens[i - 1].start] == 46 { continue }
      guard String(decoding: units[t.start..<t.end], as: UTF16.self) == "import" else { continue }
      out.append(contentsOf: units[position..<t.start])
      out.append(contentsOf: inserted)
      let width = inserted.count - (tokens[i + 1].end - t.start)
      shifts.append([t.line, t.column + lineDelta[t.line, default: 0], width])
      lineDelta[t.line, default: 0] += width
      position = tokens[i + 1].end
    }
    guard !shifts.isEmpty else { return nil }
    out.append(contentsOf: units[position...])
    return (String(decoding: out, as: UTF16.self), shifts)
  }

  /// `source` with its hashbang (`#!` opening the file, a comment only there) made a `//`
  /// comment of the same width, for a wrapper that puts code in front of it on the first line.
  public static func hashbangAsComment(_ source: String) -> String {
    source.hasPrefix("#!") ? "//" + source.dropFirst(2) : source
  }

  /// Whether the UTF-8 bytes of `word` occur in `source` (no tokenizing).
  static func mentions(_ source: String, _ word: String) -> Bool {
    var source = source
    return source.withUTF8 { bytes in
      let w = Array(word.utf8)
      guard bytes.count >= w.count else { return false }
      var i = 0
      let last = bytes.count - w.count
      while i <= last {
        if bytes[i] == w[0] {
          var same = true
          for k in 1..<w.count where bytes[i + k] != w[k] {
            same = false
            break
          }
          if same { return true }
        }
        i += 1
      }
      return false
    }
  }
}
