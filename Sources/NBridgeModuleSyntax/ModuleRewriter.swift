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
  func isWord(_ i: Int, _ s: String) -> Bool { i >= 0 && i < tokens.count && tokens[i].kind == .identifier && text(i) == s }
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

  // MARK: Scopes

  static let controlWords: Set<String> = ["if", "for", "while", "switch", "catch", "with"]

  /// Whether the token before `i` ends an expression (so a newline there may end a statement).
  func endsExpression(_ i: Int) -> Bool {
    guard i >= 0 else { return false }
    switch tokens[i].kind {
    case .identifier: return !ModuleRewriter.operatorWords.contains(text(i))
    case .number, .string, .template, .regex, .privateName: return true
    case .templateOpen: return false
    case .punctuator:
      let s = text(i)
      return s == ")" || s == "]" || s == "}" || s == "++" || s == "--"
    }
  }
  static let operatorWords: Set<String> = [
    "in", "instanceof", "of", "typeof", "void", "delete", "new", "return", "throw", "await", "yield", "case", "else",
    "do", "extends",
  ]

  /// The last token of an expression starting at `start` (arrow bodies, initializers).
  func expressionEnd(from start: Int) -> Int {
    var j = start
    var last = start
    while j < tokens.count {
      let t = tokens[j]
      if t.kind == .punctuator {
        let s = text(j)
        if s == "," || s == ";" { return last }
        if s == ")" || s == "]" || s == "}" { return last }
      }
      if j > start && t.newlineBefore && endsExpression(j - 1) && t.kind == .identifier
        && !ModuleRewriter.operatorWords.contains(text(j))
      {
        return last
      }
      if t.match > j && (t.kind == .punctuator || t.kind == .templateOpen) {
        j = t.match
        // a template's middle pieces chain to the next
        while tokens[j].kind == .templateOpen && tokens[j].match > j { j = tokens[j].match }
      }
      last = j
      j += 1
    }
    return last
  }

  /// The last token of the statement or block starting at `start` (a loop's body).
  func statementEnd(from start: Int) -> Int {
    guard start < tokens.count else { return tokens.count - 1 }
    if isPunct(start, "{") { return tokens[start].match }
    var j = start
    while j < tokens.count {
      if isPunct(j, ";") { return j }
      if isPunct(j, "}") || isPunct(j, ")") || isPunct(j, "]") { return j - 1 }
      if tokens[j].match > j { j = tokens[j].match }
      j += 1
    }
    return tokens.count - 1
  }

  /// Names bound by the pattern at `i`; returns them and the index after the pattern.
  func bindingNames(at i: Int) -> ([String], Int) {
    guard i < tokens.count else { return ([], i) }
    if tokens[i].kind == .identifier { return ([text(i)], i + 1) }
    guard isPunct(i, "[") || isPunct(i, "{") else { return ([], i + 1) }
    let close = tokens[i].match
    let isObject = isPunct(i, "{")
    var names: [String] = []
    var j = i + 1
    while j < close {
      if isPunct(j, ",") {
        j += 1
        continue
      }
      if isPunct(j, "...") { j += 1 }
      if isObject && !isPunct(j - 1, "...") {
        // key: name, 'str', 1, [computed]; then `: pattern` or shorthand
        var keyEnd = j + 1
        if isPunct(j, "[") { keyEnd = tokens[j].match + 1 }
        if isPunct(keyEnd, ":") {
          let (inner, next) = bindingNames(at: keyEnd + 1)
          names += inner
          j = next
        } else {
          if tokens[j].kind == .identifier { names.append(text(j)) }
          j += 1
        }
      } else {
        let (inner, next) = bindingNames(at: j)
        names += inner
        j = next
      }
      if isPunct(j, "=") { j = skipToComma(from: j + 1, before: close) }
    }
    return (names, close + 1)
  }

  /// The index of the next `,` before `limit` at this depth (or `limit`).
  func skipToComma(from start: Int, before limit: Int) -> Int {
    var j = start
    while j < limit && !isPunct(j, ",") {
      if tokens[j].match > j {
        j = tokens[j].match
        while tokens[j].kind == .templateOpen && tokens[j].match > j { j = tokens[j].match }
      }
      j += 1
    }
    return min(j, limit)
  }

  /// Names declared by `var`/`let`/`const` at `i` (the keyword).
  func declaratorNames(at keyword: Int) -> [String] {
    var names: [String] = []
    var j = keyword + 1
    while j < tokens.count {
      let (found, next) = bindingNames(at: j)
      names += found
      j = next
      if isPunct(j, "=") { j = expressionEnd(from: j + 1) + 1 }
      if isPunct(j, ",") {
        j += 1
        continue
      }
      break
    }
    return names
  }

  /// Names of a parameter list `(` ... `)` at `open`.
  func parameterNames(open: Int) -> [String] {
    let close = tokens[open].match
    var names: [String] = []
    var j = open + 1
    while j < close {
      if isPunct(j, "...") { j += 1 }
      let (found, next) = bindingNames(at: j)
      names += found
      j = skipToComma(from: next, before: close) + 1
    }
    return names
  }

  /// Whether `function`/`class` at `i` starts a declaration (not an expression).
  func isDeclarationPosition(_ i: Int) -> Bool {
    var p = i - 1
    if isWord(p, "async") { p -= 1 }
    if p < 0 { return true }
    if isWord(p, "export") || isWord(p, "default") { return true }
    if tokens[p].kind == .punctuator {
      let s = text(p)
      if s == ";" { return true }
      if s == "{" || s == "}" { return tokens[p].brace == .block || tokens[p].brace == .classBody }
    }
    return tokens[p + 1].newlineBefore && endsExpression(p)
  }

  mutating func pushScope(function: Bool, arrow: Bool = false, end: Int) {
    scopes.append(Scope(parent: scopes.count > 0 ? currentScope : -1, isFunction: function, isArrow: arrow, end: end))
    currentScope = scopes.count - 1
  }

  /// Whether `scope` is inside a function with its own `this` and `arguments` (not an arrow).
  func inOrdinaryFunction(_ scope: Int) -> Bool {
    var s = scope
    while s > 0 {
      if scopes[s].isFunction && !scopes[s].isArrow { return true }
      s = scopes[s].parent
    }
    return false
  }
  var currentScope = 0

  mutating func declare(_ names: [String], in scope: Int) {
    for name in names {
      scopes[scope].names.insert(name)
      allDeclared.insert(name)
      if scope == 0 { topLevelNames[name, default: 0] += 1 }
    }
  }

  func functionScope(from scope: Int) -> Int {
    var s = scope
    while !scopes[s].isFunction { s = scopes[s].parent }
    return s
  }

  func inFunction(_ scope: Int) -> Bool { functionScope(from: scope) != 0 }

  mutating func analyzeScopes() throws(ModuleSyntaxError) {
    scopeOf = Array(repeating: 0, count: tokens.count)
    var pendingExpressionName: String?
    var i = 0
    while i < tokens.count {
      while currentScope != 0 && scopes[currentScope].end < i { currentScope = scopes[currentScope].parent }
      let t = tokens[i]
      if t.kind == .identifier && !isPunct(i - 1, ".") && !isPunct(i - 1, "?.") {
        let word = text(i)
        // Conservative: a property named so (`{ this: 1 }`) counts too.
        if (word == "this" || word == "arguments" || word == "eval") && !inOrdinaryFunction(currentScope) {
          readsModuleThis = true
        }
        if word == "eval" { mentionsEval = true }
        switch word {
        case "var":
          let names = declaratorNames(at: i)
          let scope = functionScope(from: currentScope)
          if scope == 0 {
            topVar.formUnion(names)
            hasTopLevelVar = true
          }
          declare(names, in: scope)
        case "let", "const":
          let names = declaratorNames(at: i)
          if currentScope == 0 {
            topLexical += names
            if word == "const" { topConst.formUnion(names) }
          }
          declare(names, in: currentScope)
        case "function":
          var n = i + 1
          if isPunct(n, "*") { n += 1 }
          if tokens.indices.contains(n) && tokens[n].kind == .identifier {
            if isDeclarationPosition(i) {
              if currentScope == 0 {
                topLexical.append(text(n))
                topFunctions.insert(text(n))
              }
              declare([text(n)], in: currentScope)
            } else {
              pendingExpressionName = text(n)
            }
          }
        case "class":
          if tokens.indices.contains(i + 1) && tokens[i + 1].kind == .identifier && isDeclarationPosition(i)
            && text(i + 1) != "extends"
          {
            if currentScope == 0 {
              topLexical.append(text(i + 1))
              topFunctions.insert(text(i + 1))
            }
            declare([text(i + 1)], in: currentScope)
          }
        case "await" where !inFunction(currentScope):
          info.hasTopLevelAwait = true
        case "yield" where !inFunction(currentScope):
          throw fail("Unexpected keyword 'yield' in a module's top level", at: i)
        case "return" where !inFunction(currentScope):
          throw fail("Return statements are only valid inside functions", at: i)
        case "new" where isPunct(i + 1, ".") && isWord(i + 2, "target") && !inFunction(currentScope):
          throw fail("new.target is only valid inside functions", at: i)
        default:
          // `x => ...`
          if isPunct(i + 1, "=>") {
            scopeOf[i] = currentScope
            let bodyStart = i + 2
            let end = isPunct(bodyStart, "{") ? tokens[bodyStart].match : expressionEnd(from: bodyStart)
            pushScope(function: true, arrow: true, end: end)
            declare([word], in: currentScope)
          }
        }
      }
      if t.kind == .punctuator && (text(i) == "(" || text(i) == "{") {
        let close = t.match
        if text(i) == "(" {
          let after = close + 1
          let before = i > 0 ? text(i - 1) : ""
          if isPunct(after, "=>") {
            let bodyStart = after + 1
            let end = isPunct(bodyStart, "{") ? tokens[bodyStart].match : expressionEnd(from: bodyStart)
            pushScope(function: true, arrow: true, end: end)
            declare(parameterNames(open: i), in: currentScope)
          } else if before == "for" || before == "catch" {
            pushScope(function: false, end: statementEnd(from: after))
            if before == "catch" { declare(parameterNames(open: i), in: currentScope) }
          } else if isPunct(after, "{") && tokens[after].brace != .classBody
            && !ModuleRewriter.controlWords.contains(before)
          {
            pushScope(function: true, end: tokens[after].match)
            if let name = pendingExpressionName { declare([name], in: currentScope) }
            declare(parameterNames(open: i), in: currentScope)
          }
          pendingExpressionName = nil
        } else if t.brace != .object {
          pushScope(function: false, end: close)
        }
      }
      scopeOf[i] = currentScope
      i += 1
    }
  }

  // MARK: Imports and exports

  mutating func request(_ i: Int, attributesFrom j: Int) throws(ModuleSyntaxError) -> (Int, Int) {
    guard tokens.indices.contains(i), tokens[i].kind == .string else { throw fail("Expected a module specifier", at: i) }
    let specifier = stringValue(i)
    var next = i + 1
    var type: String?
    if isWord(next, "with") && !tokens[next].newlineBefore || isWord(next, "with") && isPunct(next + 1, "{") {
      guard isPunct(next + 1, "{") else { throw fail("Expected '{' after 'with'", at: next + 1) }
      let close = tokens[next + 1].match
      var k = next + 2
      var keys: Set<String> = []
      while k < close {
        guard tokens[k].kind == .identifier || tokens[k].kind == .string, isPunct(k + 1, ":"),
          tokens.indices.contains(k + 2), tokens[k + 2].kind == .string
        else { throw fail("Import attributes are `key: 'value'` pairs", at: k) }
        let key = tokens[k].kind == .string ? stringValue(k) : text(k)
        if !keys.insert(key).inserted { throw fail("Duplicate import attribute '\(key)'", at: k) }
        let value = stringValue(k + 2)
        if key == "type" { type = value }
        k += 3
        if isPunct(k, ",") { k += 1 }
      }
      next = close + 1
    }
    _ = j
    let found = info.requests.firstIndex { $0.specifier == specifier && $0.type == type }
    if let found { return (found, next) }
    info.requests.append(.init(specifier: specifier, type: type, line: tokens[i].line, column: tokens[i].column))
    return (info.requests.count - 1, next)
  }

  /// Blanks tokens `from...through` (and a following `;`); returns the index after. The
  /// declaration must end there: a `;`, a line break or the end of the source.
  mutating func blank(_ from: Int, _ through: Int) throws(ModuleSyntaxError) -> Int {
    var last = through
    if isPunct(last + 1, ";") {
      last += 1
    } else if last + 1 < tokens.count && !tokens[last + 1].newlineBefore {
      throw fail("Unexpected token '\(text(last + 1))' after the declaration", at: last + 1)
    }
    edits.append((tokens[from].start, tokens[last].end, nil))
    for k in from...last { declarationTokens.insert(k) }
    return last + 1
  }

  mutating func scanTopLevel() throws(ModuleSyntaxError) {
    var i = 0
    while i < tokens.count {
      let t = tokens[i]
      if t.kind == .identifier && !isPunct(i - 1, ".") && !isPunct(i - 1, "?.") {
        let word = text(i)
        if word == "import" && !isPunct(i + 1, "(") && !isPunct(i + 1, ".") {
          try checkStatementPosition(i)
          i = try importDeclaration(i)
          continue
        }
        if word == "export" {
          try checkStatementPosition(i)
          i = try exportDeclaration(i)
          continue
        }
      }
      if t.match > i && (t.kind == .punctuator || t.kind == .templateOpen) {
        i = t.match
        while tokens[i].kind == .templateOpen && tokens[i].match > i { i = tokens[i].match }
      }
      i += 1
    }
  }

  /// An import or export declaration must be a module item, not the body of `if`, a loop or a label.
  func checkStatementPosition(_ i: Int) throws(ModuleSyntaxError) {
    guard i > 0 else { return }
    let p = i - 1
    var nested = false
    if isWord(p, "else") || isWord(p, "do") || isPunct(p, ":") {
      nested = true
    } else if isPunct(p, ")"), tokens[p].match > 0 {
      let before = text(tokens[p].match - 1)
      nested = ["if", "while", "for", "with"].contains(before)
    }
    if nested { throw fail("'\(text(i))' declarations may only appear at the top level of a module", at: i) }
  }

  mutating func addImport(_ local: String, _ name: String, request: Int, at i: Int) throws(ModuleSyntaxError) {
    if ModuleRewriter.reserved.contains(local) { throw fail("Unexpected keyword '\(local)'", at: i) }
    if info.imports.contains(where: { $0.local == local }) { throw fail("Duplicate imported name '\(local)'", at: i) }
    info.imports.append(.init(local: local, name: name, request: request, line: tokens[i].line, column: tokens[i].column))
  }

  static let reserved: Set<String> = [
    "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do", "else", "enum",
    "export", "extends", "false", "finally", "for", "function", "if", "import", "in", "instanceof", "new", "null",
    "return", "super", "switch", "this", "throw", "true", "try", "typeof", "var", "void", "while", "with", "yield",
    "await", "let", "static", "implements", "interface", "package", "private", "protected", "public", "eval",
    "arguments",
  ]

  mutating func importDeclaration(_ start: Int) throws(ModuleSyntaxError) -> Int {
    var i = start + 1
    var bindings: [(local: String, name: String, at: Int)] = []
    if tokens.indices.contains(i) && tokens[i].kind == .string {
      let (_, next) = try request(i, attributesFrom: i + 1)
      return try blank(start, next - 1)
    }
    if tokens.indices.contains(i) && tokens[i].kind == .identifier && !isWord(i, "from") || isWord(i, "from") && isPunct(i + 1, ",")
      || isWord(i, "from") && isWord(i + 1, "from")
    {
      bindings.append((text(i), "default", i))
      i += 1
      if isPunct(i, ",") { i += 1 } else if !isWord(i, "from") { throw fail("Unexpected token '\(text(i))'", at: i) }
    }
    if isPunct(i, "*") {
      guard isWord(i + 1, "as"), tokens.indices.contains(i + 2), tokens[i + 2].kind == .identifier else {
        throw fail("Expected 'as' after '*'", at: i + 1)
      }
      bindings.append((text(i + 2), "*", i + 2))
      i += 3
    } else if isPunct(i, "{") {
      let close = tokens[i].match
      var k = i + 1
      while k < close {
        let name = try moduleName(k)
        if isWord(k + 1, "as") {
          guard tokens[k + 2].kind == .identifier else { throw fail("Expected a name after 'as'", at: k + 2) }
          bindings.append((text(k + 2), name, k + 2))
          k += 3
        } else {
          if tokens[k].kind == .string { throw fail("A string import name needs 'as'", at: k) }
          bindings.append((name, name, k))
          k += 1
        }
        if isPunct(k, ",") { k += 1 } else if k < close { throw fail("Expected ',' in the import list", at: k) }
      }
      i = close + 1
    } else if bindings.isEmpty {
      throw fail("Unexpected token '\(text(i))' after import", at: i)
    }
    guard isWord(i, "from") else { throw fail("Expected 'from' after the import list", at: i) }
    let (index, next) = try request(i + 1, attributesFrom: i + 2)
    for binding in bindings { try addImport(binding.local, binding.name, request: index, at: binding.at) }
    return try blank(start, next - 1)
  }

  mutating func addExport(_ name: String, local: String?, at i: Int, request: Int? = nil, importName: String? = nil)
    throws(ModuleSyntaxError)
  {
    if info.exports.contains(where: { $0.name == name }) { throw fail("Duplicate export of '\(name)'", at: i) }
    info.exports.append(
      .init(
        name: name, localName: local, request: request, importName: importName, line: tokens[i].line,
        column: tokens[i].column))
  }

  mutating func exportDeclaration(_ start: Int) throws(ModuleSyntaxError) -> Int {
    let i = start + 1
    guard tokens.indices.contains(i) else { throw fail("Unexpected end after export", at: start) }
    if isPunct(i, "*") {
      if isWord(i + 1, "as") {
        let name = try moduleName(i + 2)
        guard isWord(i + 3, "from") else { throw fail("Expected 'from'", at: i + 3) }
        let (index, next) = try request(i + 4, attributesFrom: i + 5)
        try addExport(name, local: nil, at: i + 2, request: index, importName: "*")
        return try blank(start, next - 1)
      }
      guard isWord(i + 1, "from") else { throw fail("Expected 'from' after 'export *'", at: i + 1) }
      let (index, next) = try request(i + 2, attributesFrom: i + 3)
      info.starExports.append(index)
      return try blank(start, next - 1)
    }
    if isPunct(i, "{") {
      let close = tokens[i].match
      var list: [(local: String, localIsString: Bool, name: String, at: Int)] = []
      var k = i + 1
      while k < close {
        let local = try moduleName(k)
        let localIsString = tokens[k].kind == .string
        var name = local
        var at = k
        if isWord(k + 1, "as") {
          name = try moduleName(k + 2)
          at = k + 2
          k += 3
        } else {
          k += 1
        }
        list.append((local, localIsString, name, at))
        if isPunct(k, ",") { k += 1 } else if k < close { throw fail("Expected ',' in the export list", at: k) }
      }
      if isWord(close + 1, "from") {
        let (index, next) = try request(close + 2, attributesFrom: close + 3)
        for item in list { try addExport(item.name, local: nil, at: item.at, request: index, importName: item.local) }
        return try blank(start, next - 1)
      }
      for item in list {
        if item.localIsString { throw fail("A string export name needs 'from'", at: item.at) }
        if ModuleRewriter.reserved.contains(item.local) { throw fail("Unexpected keyword '\(item.local)'", at: item.at) }
        try addExport(item.name, local: item.local, at: item.at)
      }
      return try blank(start, close)
    }
    if isWord(i, "default") {
      let d = prefix + "d"
      var j = i + 1
      let isAsyncFunction = isWord(j, "async") && isWord(j + 1, "function") && !tokens[j + 1].newlineBefore
      if isAsyncFunction { j += 1 }
      if isWord(j, "function") || isWord(j, "class") {
        var n = j + 1
        if isPunct(n, "*") { n += 1 }
        if tokens.indices.contains(n) && tokens[n].kind == .identifier && text(n) != "extends" {
          try addExport("default", local: text(n), at: i)
          edits.append((tokens[start].start, tokens[i].end, nil))
          return i + 1
        }
        if isWord(j, "class") {
          // an anonymous class: `const P d = {default: class {...}}.default;` names it "default"
          guard isPunct(n, "{") || isWord(n, "extends") else { throw fail("Unexpected token after class", at: n) }
          var body = n
          while body < tokens.count && !(isPunct(body, "{") && tokens[body].brace == .classBody) {
            body = tokens[body].match > body ? tokens[body].match + 1 : body + 1
          }
          guard body < tokens.count else { throw fail("Expected a class body", at: n) }
          edits.append((tokens[start].start, tokens[i].end, "const \(d) ={default:"))
          edits.append((tokens[tokens[body].match].end, tokens[tokens[body].match].end, "}.default;"))
          declare([d], in: 0)
          topConst.insert(d)
          try addExport("default", local: d, at: i)
          info.defaultLocal = d
          return i + 1
        }
        // an anonymous function: give it the internal name, renamed "default" by the loader
        edits.append((tokens[start].start, tokens[i].end, nil))
        edits.append((tokens[n - 1].end, tokens[n - 1].end, " " + d))
        declare([d], in: 0)
        topFunctions.insert(d)
        try addExport("default", local: d, at: i)
        info.defaultLocal = d
        return i + 1
      }
      // `const P d = {default: <expression>}.default` names an anonymous function "default"
      let end = expressionEnd(from: i + 1)
      edits.append((tokens[start].start, tokens[i].end, "const \(d) ={default:"))
      edits.append((tokens[end].end, tokens[end].end, "}.default"))
      declare([d], in: 0)
      topConst.insert(d)
      try addExport("default", local: d, at: i)
      info.defaultLocal = d
      return i + 1
    }
    edits.append((tokens[start].start, tokens[start].end, nil))
    if isWord(i, "var") || isWord(i, "let") || isWord(i, "const") {
      for name in declaratorNames(at: i) { try addExport(name, local: name, at: i) }
      return i + 1
    }
    var j = i
    if isWord(j, "async") && isWord(j + 1, "function") { j += 1 }
    if isWord(j, "function") || isWord(j, "class") {
      var n = j + 1
      if isPunct(n, "*") { n += 1 }
      guard tokens.indices.contains(n), tokens[n].kind == .identifier else {
        throw fail("An exported declaration needs a name", at: n)
      }
      try addExport(text(n), local: text(n), at: n)
      return i + 1
    }
    throw fail("Unexpected token '\(text(i))' after export", at: i)
  }

  mutating func checkExports() throws(ModuleSyntaxError) {
    var lexical: Set<String> = []
    for name in topLexical {
      if !lexical.insert(name).inserted || topVar.contains(name) {
        throw ModuleSyntaxError("Cannot redeclare '\(name)' in a module", line: 1, column: 0)
      }
    }
    let importedLocals = Set(info.imports.map(\.local))
    for imp in info.imports where topLevelNames[imp.local] != nil {
      throw ModuleSyntaxError("Cannot declare '\(imp.local)': it is imported", line: imp.line, column: imp.column)
    }
    for (index, export) in info.exports.enumerated() {
      guard let local = export.localName else { continue }
      if let imp = info.imports.first(where: { $0.local == local }) {
        info.exports[index].localName = nil
        info.exports[index].request = imp.request
        info.exports[index].importName = imp.name
        continue
      }
      if !importedLocals.contains(local) && topLevelNames[local] == nil && !allDeclared.contains(local) {
        throw ModuleSyntaxError(
          "Exported binding '\(local)' is not declared in the module", line: export.line, column: export.column)
      }
    }
  }

  // MARK: References

  mutating func rewriteReferences() throws(ModuleSyntaxError) {
    let imported = Set(info.imports.map(\.local))
    for i in tokens.indices {
      let t = tokens[i]
      if t.kind == .identifier && text(i) == "import" && !isPunct(i - 1, ".") && !isPunct(i - 1, "?.") {
        if isPunct(i + 1, "(") {
          edits.append((t.start, t.end, prefix + ".import"))
        } else if isPunct(i + 1, "."), isWord(i + 2, "meta") {
          edits.append((t.start, t.end, prefix + ".import"))
        }
        continue
      }
      guard t.kind == .identifier, !imported.isEmpty, !declarationTokens.contains(i) else { continue }
      let name = text(i)
      guard imported.contains(name) else { continue }
      if isPunct(i - 1, ".") || isPunct(i - 1, "?.") || isWord(i - 1, "break") || isWord(i - 1, "continue") {
        continue
      }
      if isShadowed(name, at: i) { continue }
      let enclosing = enclosingOpen(i)
      let prevText = i > 0 ? text(i - 1) : ""
      let prevIsListStart = isPunct(i - 1, "{") || isPunct(i - 1, ",")
      if isPunct(i + 1, ":") && (prevIsListStart || i == 0 || isPunct(i - 1, ";") || isPunct(i - 1, "}")) {
        continue  // a key or a label
      }
      if let open = enclosing, tokens[open].brace == .object, isPunct(open, "{") {
        if prevIsListStart && isPunct(i + 1, "(") { continue }  // method
        if ["get", "set", "async", "*"].contains(prevText) && isPunct(i + 1, "(") { continue }
        if prevIsListStart && (isPunct(i + 1, ",") || isPunct(i + 1, "}") || isPunct(i + 1, "=")) {
          edits.append((t.start, t.start, name + ":" + prefix + "."))
          continue
        }
      }
      if let open = enclosing, tokens[open].brace == .classBody, isPunct(open, "{") {
        if isClassMemberName(i, body: open) { continue }
      }
      if isPunct(i + 1, "(") || tokens.indices.contains(i + 1) && (tokens[i + 1].kind == .template || tokens[i + 1].kind == .templateOpen) && !tokens[i + 1].newlineBefore {
        edits.append((t.start, t.start, "(0," + prefix + "."))
        edits.append((t.end, t.end, ")"))
      } else {
        edits.append((t.start, t.start, prefix + "."))
      }
    }
  }

  /// The index of the bracket enclosing token `i` (nil at the top level).
  func enclosingOpen(_ i: Int) -> Int? {
    var j = i - 1
    while j >= 0 {
      let t = tokens[j]
      if t.match > i && (t.kind == .punctuator || t.kind == .templateOpen) { return j }
      if t.match >= 0 && t.match < j && t.kind != .templateOpen { j = t.match }
      j -= 1
    }
    return nil
  }

  /// Whether identifier `i`, directly in a class body, names a member (rather than reading a value).
  func isClassMemberName(_ i: Int, body: Int) -> Bool {
    var j = i - 1
    while j > body {
      if isPunct(j, "=") { return false }
      if isPunct(j, ";") || isPunct(j, "}") && tokens[j].match < j { return true }
      if tokens[j + 1].newlineBefore && !isPunct(j, "=") && endsExpression(j) { return true }
      if tokens[j].match >= 0 && tokens[j].match < j { j = tokens[j].match }
      j -= 1
    }
    return true
  }

  // MARK: Output

  mutating func emit() {
    var getters: [String] = []
    var liveGetters: [String] = []
    var constants: [String] = []
    let assigned = mentionsEval ? topFunctions : reassigned(topFunctions)
    for export in info.exports {
      guard let local = export.localName else { continue }
      let key = "\"" + local + "\""
      guard !getters.contains(where: { $0.hasPrefix(key + ":") }) else { continue }
      getters.append("\(key):()=>\(local)")
      if topConst.contains(local) || topFunctions.contains(local) && !assigned.contains(local) {
        constants.append(local)
      } else {
        liveGetters.append("\(key):()=>\(local)")
      }
    }
    // The getters are made where the function opens: no second function to compile per module.
    let header =
      (info.hasTopLevelAwait ? "(async function*" : "(function*")
      + "(\(prefix)){\"use strict\";\(prefix).export={\(getters.joined(separator: ","))};yield;"
    // Run as a program, a module is in no cycle: nothing reads its exports before its body has
    // run, so only the bindings that can still change need a getter (each costs a closure and
    // keeps its binding out of a register); the rest are handed over at the end.
    info.programHead =
      "\"use strict\";{const \(prefix)=this;"
      + (liveGetters.isEmpty ? "" : "\(prefix).export={\(liveGetters.joined(separator: ","))};")
    // When the body has run, its exported constants are handed over by value too (`P.const`):
    // an importer that runs after it reads them without calling (and compiling) a getter.
    let footer =
      constants.isEmpty ? "\n})" : "\n;\(prefix).const={__proto__:null,\(constants.joined(separator: ","))}})"
    var out: [UInt16] = Array(header.utf16)
    info.headWidth = out.count
    var shifts: [[Int]] = [[1, 0, header.utf16.count]]
    var lineDelta: [Int: Int] = [1: header.utf16.count]
    edits.sort { $0.start < $1.start || ($0.start == $1.start && $0.end < $1.end) }
    var position = 0
    var line = 1
    var lineStart = 0
    func copy(upTo end: Int, blank: Bool) {
      while position < end {
        let c = units[position]
        if Lexer.isLineTerminator(c) {
          out.append(c)
          if !(c == 13 && position + 1 < units.count && units[position + 1] == 10) {
            line += 1
            lineStart = position + 1
          }
        } else {
          out.append(blank ? 32 : c)
        }
        position += 1
      }
    }
    for edit in edits where edit.start >= position {
      copy(upTo: edit.start, blank: false)
      let column = edit.start - lineStart
      guard let text = edit.text else {
        copy(upTo: edit.end, blank: true)
        continue
      }
      let newUnits = Array(text.utf16)
      let width = edit.end - edit.start
      out.append(contentsOf: newUnits)
      if newUnits.count > width {
        let generated = column + lineDelta[line, default: 0]
        shifts.append([line, generated, newUnits.count - width])
        lineDelta[line, default: 0] += newUnits.count - width
      } else {
        out.append(contentsOf: Array(repeating: 32, count: width - newUnits.count))
      }
      position = edit.end
    }
    copy(upTo: units.count, blank: false)
    out.append(contentsOf: footer.utf16)
    info.columnShifts = shifts
    info.script = out
  }
}

extension ModuleRewriter {
  /// Which of the top-level `names` may be assigned somewhere after their declaration (a
  /// conservative reading: an assignment operator or `++`/`--` beside the name, the name followed
  /// by `of` or `in`, or inside brackets that an `=`, `of` or `in` follows, as in a destructuring).
  func reassigned(_ names: Set<String>) -> Set<String> {
    guard !names.isEmpty else { return [] }
    var parent = Array(repeating: -1, count: tokens.count)
    var open: [Int] = []
    for (i, t) in tokens.enumerated() {
      while let last = open.last, tokens[last].match < i { open.removeLast() }
      parent[i] = open.last ?? -1
      if t.kind == .punctuator && t.match > i { open.append(i) }
    }
    var found: Set<String> = []
    for (i, t) in tokens.enumerated() where t.kind == .identifier {
      let name = text(i)
      guard names.contains(name), !found.contains(name), !isPunct(i - 1, "."), !isPunct(i - 1, "?.") else { continue }
      if isShadowed(name, at: i) { continue }
      if assigns(after: i) || isPunct(i - 1, "++") || isPunct(i - 1, "--") {
        found.insert(name)
        continue
      }
      var p = parent[i]
      while p >= 0 {
        if (isPunct(p, "[") || isPunct(p, "{")) && assigns(after: tokens[p].match) {
          found.insert(name)
          break
        }
        p = parent[p]
      }
    }
    return found
  }

  /// Whether `name` at token `i` is a nearer declaration's, not the module's top-level binding.
  func isShadowed(_ name: String, at i: Int) -> Bool {
    var s = scopeOf[i]
    while s > 0 {
      if scopes[s].names.contains(name) { return true }
      s = scopes[s].parent
    }
    return false
  }

  /// Whether the token after `i` assigns to what ends at `i`.
  func assigns(after i: Int) -> Bool {
    let next = i + 1
    guard next < tokens.count else { return false }
    if tokens[next].kind == .identifier { return text(next) == "of" || text(next) == "in" }
    return tokens[next].kind == .punctuator && ModuleRewriter.assignmentOperators.contains(text(next))
  }

  static let assignmentOperators: Set<String> = [
    "=", "+=", "-=", "*=", "/=", "%=", "**=", "<<=", ">>=", ">>>=", "&=", "|=", "^=", "&&=", "||=", "??=", "++", "--",
  ]
}
