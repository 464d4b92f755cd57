/// Rewrites an ES module into a generator function the loader drives, keeping every token at its
/// line (and, but for inserted text, its column):
///
/// - `import`/`export` declarations become spaces; their facts go into a `ModuleRecordInfo`.
/// - each use of an imported name `x` reads through the module's import record, `P.x` (a
///   local that shadows it is left alone), so bindings are live and assigning one is a TypeError;
/// - `import(...)` and `import.meta` become `P.import(...)` and `P.import.meta`;
/// - the function opens on the first line with `"use strict"`, hands the loader an object of
///   getters over its exported locals (`P.export = {"x": () => x}`), and yields:
///   the loader resumes it to evaluate the body (an async generator when it awaits at top level);
/// - the body ends by handing over its exported `const` bindings by value (`P.const = {x}`).
public struct ModuleRewriter {
  let units: [UInt16]
  let tokens: [Token]
  var info = ModuleRecordInfo()
  /// Replacements, by start offset: `(start, end, text)`; nil text blanks the range.
  var edits: [(start: Int, end: Int, text: String?)] = []
  /// Tokens inside import/export declarations (no references there).
  var declarationTokens: Set<Int> = []
  var scopes: [Scope] = [Scope(parent: -1, isFunction: true, end: Int.max)]
  var scopeOf: [Int] = []
  var topLevelNames: [String: Int] = [:]
  var topLexical: [String] = []
  /// Top-level names declared `const` (an exported one's value is final once the body has run).
  var topConst: Set<String> = []
  /// Top-level function and class declarations (final too, unless something assigns them).
  var topFunctions: Set<String> = []
  /// Whether `eval` is written anywhere (it could assign any binding).
  var mentionsEval = false
  var topVar: Set<String> = []
  var allDeclared: Set<String> = []
  var prefix = "_$"

  /// Whether a `var` declaration binds at the module's top level.
  var hasTopLevelVar = false
  /// Whether `this`, `arguments` or `eval` is written outside every ordinary (non-arrow) function.
  var readsModuleThis = false

  /// The scope the analysis is in (an index into `scopes`).
  var currentScope = 0

  struct Scope {
    var parent: Int
    var isFunction: Bool
    var isArrow = false
    var end: Int
    var names: Set<String> = []
  }

  /// Rewrites module `source`; throws a syntax error found on the way (JavaScriptCore finds the rest).
  public static func rewrite(_ source: String) throws(ModuleSyntaxError) -> ModuleRecordInfo {
    try rewrite(units: Array(source.utf16))
  }

  /// Rewrites the module whose source is the UTF-16 `units`.
  public static func rewrite(units: [UInt16]) throws(ModuleSyntaxError) -> ModuleRecordInfo {
    var units = units
    // A hashbang is a comment only where the file starts, and the function's head goes there.
    if units.count >= 2 && units[0] == 35 && units[1] == 33 { units.replaceSubrange(0..<2, with: [47, 47]) }
    var rewriter = ModuleRewriter(units: units, tokens: try Lexer.tokenize(units))
    try rewriter.run()
    return rewriter.info
  }

  init(units: [UInt16], tokens: [Token]) {
    self.units = units
    self.tokens = tokens
    texts = tokens.map { ModuleRewriter.tokenText(units, $0) }
  }

  /// Each token's text, made once (the analysis reads them many times).
  let texts: [String]

  func text(_ i: Int) -> String {
    guard i >= 0 && i < tokens.count else { return "" }
    return texts[i]
  }

  static func tokenText(_ units: [UInt16], _ token: Token) -> String {
    let slice = units[token.start..<token.end]
    if slice.allSatisfy({ $0 < 0x80 }) {
      if token.kind == .identifier && slice.contains(92) { return decodedIdentifier(Array(slice)) }
      return String(unsafeUninitializedCapacity: slice.count) { buffer in
        for (k, unit) in slice.enumerated() { buffer[k] = UInt8(truncatingIfNeeded: unit) }
        return slice.count
      }
    }
    if token.kind == .identifier && slice.contains(92) { return decodedIdentifier(Array(slice)) }
    return String(decoding: slice, as: UTF16.self)
  }

  /// An identifier written with `\u` escapes, as the name it spells.
  static func decodedIdentifier(_ raw: [UInt16]) -> String {
    var out = ""
    var k = 0
    while k < raw.count {
      if raw[k] == 92 && k + 1 < raw.count && raw[k + 1] == 117 {
        k += 2
        var hex = ""
        if k < raw.count && raw[k] == 123 {
          k += 1
          while k < raw.count && raw[k] != 125 {
            hex.unicodeScalars.append(Unicode.Scalar(raw[k]) ?? "0")
            k += 1
          }
          k += 1
        } else {
          while k < raw.count && hex.count < 4 {
            hex.unicodeScalars.append(Unicode.Scalar(raw[k]) ?? "0")
            k += 1
          }
        }
        if let v = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(v) { out.unicodeScalars.append(scalar) }
      } else {
        let end = raw[k...].firstIndex(of: 92) ?? raw.count
        out += String(decoding: raw[k..<end], as: UTF16.self)
        k = end
      }
    }
    return out
  }
  func isPunct(_ i: Int, _ s: String) -> Bool { i >= 0 && i < tokens.count && tokens[i].kind == .punctuator && text(i) == s }
  /// Whether token `i` is the word `s` written as is: a keyword spelled with `\u` escapes is not
  /// that keyword (an escaped `as`, `from` or `default` is a syntax error where one is expected).
  func isWord(_ i: Int, _ s: String) -> Bool {
    i >= 0 && i < tokens.count && tokens[i].kind == .identifier && tokens[i].end - tokens[i].start == s.utf16.count
      && text(i) == s
  }
  func fail(_ message: String, at i: Int) -> ModuleSyntaxError {
    let t = i < tokens.count ? tokens[i] : tokens.last
    return ModuleSyntaxError(message, line: t?.line ?? 1, column: t?.column ?? 0)
  }

  /// The value of a string literal token.
  func stringValue(_ i: Int) -> String {
    let raw = Array(units[tokens[i].start + 1..<tokens[i].end - 1])
    var out: [UInt16] = []
    var k = 0
    while k < raw.count {
      let c = raw[k]
      if c != 92 {
        out.append(c)
        k += 1
        continue
      }
      k += 1
      guard k < raw.count else { break }
      let e = raw[k]
      k += 1
      switch e {
      case 110: out.append(10)
      case 116: out.append(9)
      case 114: out.append(13)
      case 98: out.append(8)
      case 102: out.append(12)
      case 118: out.append(11)
      case 48: out.append(0)
      case 10, 13, 0x2028, 0x2029: if e == 13 && k < raw.count && raw[k] == 10 { k += 1 }
      case 120:
        if k + 2 <= raw.count, let v = UInt16(String(decoding: raw[k..<k + 2], as: UTF16.self), radix: 16) {
          out.append(v)
          k += 2
        }
      case 117:
        var hex = ""
        if k < raw.count && raw[k] == 123 {
          k += 1
          while k < raw.count && raw[k] != 125 {
            hex.append(Character(Unicode.Scalar(raw[k]) ?? "0"))
            k += 1
          }
          k += 1
        } else if k + 4 <= raw.count {
          hex = String(decoding: raw[k..<k + 4], as: UTF16.self)
          k += 4
        }
        if let v = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(v) {
          out.append(contentsOf: Array(String(scalar).utf16))
        } else if let v = UInt16(hex, radix: 16) {
          out.append(v)
        }
      default: out.append(e)
      }
    }
    return String(decoding: out, as: UTF16.self)
  }

  /// A module export/import name: an identifier or a string literal (well-formed Unicode only).
  func moduleName(_ i: Int) throws(ModuleSyntaxError) -> String {
    if tokens[i].kind == .string {
      let value = stringValue(i)
      if value.unicodeScalars.contains(where: { $0 == "\u{FFFD}" }) && !text(i).contains("\u{FFFD}") {
        throw fail("A module export name must be well-formed Unicode", at: i)
      }
      return value
    }
    guard tokens[i].kind == .identifier else { throw fail("Unexpected token '\(text(i))'", at: i) }
    return text(i)
  }

  mutating func run() throws(ModuleSyntaxError) {
    choosePrefix()
    try analyzeScopes()
    try scanTopLevel()
    try checkExports()
    try rewriteReferences()
    emit()
    info.runsAsProgram = !info.hasTopLevelAwait && !hasTopLevelVar && !readsModuleThis
  }

  mutating func choosePrefix() {
    var names: Set<String> = []
    for (i, t) in tokens.enumerated() where t.kind == .identifier { names.insert(text(i)) }
    var candidate = "_$"
    while names.contains(where: { $0.hasPrefix(candidate) }) { candidate += "$" }
    prefix = candidate
    info.prefix = candidate
  }
}
