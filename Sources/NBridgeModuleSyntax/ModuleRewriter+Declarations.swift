// Import and export declarations: blanked in the output, their facts recorded in the module's
// record (requests, imports, exports).
extension ModuleRewriter {
  /// Records the request whose specifier is the string at `i` (attributes from `j`); returns its
  /// index and the token after the declaration.
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

  /// The first pass: each top-level `import`/`export` declaration, recorded and blanked.
  mutating func scanTopLevel() throws(ModuleSyntaxError) {
    var i = 0
    while i < tokens.count {
      let t = tokens[i]
      if t.kind == .identifier && !isPunct(i - 1, ".") && !isPunct(i - 1, "?.") {
        if isWord(i, "import") && !isPunct(i + 1, "(") && !isPunct(i + 1, ".") {
          try checkStatementPosition(i)
          i = try importDeclaration(i)
          continue
        }
        if isWord(i, "export") {
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

  /// Records one imported binding (a name imported twice is a syntax error).
  mutating func addImport(_ local: String, _ name: String?, request: Int, at i: Int) throws(ModuleSyntaxError) {
    if ModuleRewriter.reserved.contains(local) { throw fail("Unexpected keyword '\(local)'", at: i) }
    if info.imports.contains(where: { $0.local == local }) { throw fail("Duplicate imported name '\(local)'", at: i) }
    info.imports.append(.init(local: local, name: name, request: request, line: tokens[i].line, column: tokens[i].column))
  }

  /// Words no binding may take in module code.
  static let reserved: Set<String> = [
    "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do", "else", "enum",
    "export", "extends", "false", "finally", "for", "function", "if", "import", "in", "instanceof", "new", "null",
    "return", "super", "switch", "this", "throw", "true", "try", "typeof", "var", "void", "while", "with", "yield",
    "await", "let", "static", "implements", "interface", "package", "private", "protected", "public", "eval",
    "arguments",
  ]

  /// Reads the `import` declaration at `start`; returns the token after it.
  mutating func importDeclaration(_ start: Int) throws(ModuleSyntaxError) -> Int {
    var i = start + 1
    var bindings: [(local: String, name: String?, at: Int)] = []
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
      bindings.append((text(i + 2), nil, i + 2))
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

  /// Records one export (a name exported twice is a syntax error).
  mutating func addExport(_ name: String, local: String?, at i: Int, request: Int? = nil, importName: String? = nil)
    throws(ModuleSyntaxError)
  {
    if info.exports.contains(where: { $0.name == name }) { throw fail("Duplicate export of '\(name)'", at: i) }
    info.exports.append(
      .init(
        name: name, localName: local, request: request, importName: importName, line: tokens[i].line,
        column: tokens[i].column))
  }

  /// Reads the `export` declaration at `start`; returns the token after it.
  mutating func exportDeclaration(_ start: Int) throws(ModuleSyntaxError) -> Int {
    let i = start + 1
    guard tokens.indices.contains(i) else { throw fail("Unexpected end after export", at: start) }
    if isPunct(i, "*") {
      if isWord(i + 1, "as") {
        let name = try moduleName(i + 2)
        guard isWord(i + 3, "from") else { throw fail("Expected 'from'", at: i + 3) }
        let (index, next) = try request(i + 4, attributesFrom: i + 5)
        try addExport(name, local: nil, at: i + 2, request: index, importName: nil)
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
          return try exportDefault(d, constant: true, at: i)
        }
        // an anonymous function: give it the internal name, renamed "default" by the loader
        edits.append((tokens[start].start, tokens[i].end, nil))
        edits.append((tokens[n - 1].end, tokens[n - 1].end, " " + d))
        return try exportDefault(d, constant: false, at: i)
      }
      // `const P d = {default: <expression>}.default` names an anonymous function "default"
      let end = expressionEnd(from: i + 1)
      edits.append((tokens[start].start, tokens[i].end, "const \(d) ={default:"))
      edits.append((tokens[end].end, tokens[end].end, "}.default"))
      return try exportDefault(d, constant: true, at: i)
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

  /// Declares `d`, the internal local an anonymous default export is given, as the default
  /// export: a `const` (`constant`), else a function declaration. Returns the token after `default`.
  mutating func exportDefault(_ d: String, constant: Bool, at i: Int) throws(ModuleSyntaxError) -> Int {
    declare([d], in: 0)
    if constant { topConst.insert(d) } else { topFunctions.insert(d) }
    try addExport("default", local: d, at: i)
    info.defaultLocal = d
    return i + 1
  }

  /// After the scope pass: no top-level name declared twice or both imported and declared, an
  /// export of an imported name becomes a re-export, and every other local export is declared.
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
}
