// Scope analysis: which names each scope declares, so that a local shadowing an import is left
// alone, and what the top level declares (var, const, functions, classes).
extension ModuleRewriter {
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

  /// Enters a scope that ends at token `end`.
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

  /// Adds `names` to `scope`.
  mutating func declare(_ names: [String], in scope: Int) {
    for name in names {
      scopes[scope].names.insert(name)
      allDeclared.insert(name)
      if scope == 0 { topLevelNames[name, default: 0] += 1 }
    }
  }

  /// The nearest function scope (0, the module, when there is none).
  func functionScope(from scope: Int) -> Int {
    var s = scope
    while !scopes[s].isFunction { s = scopes[s].parent }
    return s
  }

  /// Whether `scope` is inside a function (of any kind).
  func inFunction(_ scope: Int) -> Bool { functionScope(from: scope) != 0 }

  /// The scope pass: each token's scope, what every scope declares, and what the top level holds.
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
}
