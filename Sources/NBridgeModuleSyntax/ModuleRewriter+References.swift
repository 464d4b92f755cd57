// Every use of an imported name rewritten to read through the module's import record.
extension ModuleRewriter {
  /// Rewrites each read of an imported name to `P.name`, and `import(`/`import.meta` to the context's.
  mutating func rewriteReferences() throws(ModuleSyntaxError) {
    let imported = Set(info.imports.map(\.local))
    for i in tokens.indices {
      let t = tokens[i]
      if isWord(i, "import") && !isPunct(i - 1, ".") && !isPunct(i - 1, "?.") {
        if isPunct(i + 1, "(") {
          edits.append((t.start, t.end, prefix + ".import"))
        } else if isPunct(i + 1, ".") {
          guard isWord(i + 2, "meta") else { throw fail("'import.' can only be followed by 'meta'", at: i + 2) }
          if assignsImportMeta(at: i) { throw fail("import.meta is not a valid assignment target", at: i) }
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

  /// Whether `import.meta` (its `import` at `i`) is written where it would be assigned: beside an
  /// assignment or update operator, as a `for-in`/`for-of` head, or as an element of a
  /// destructuring pattern. The rewritten `P.import.meta` could be assigned: JSC would not object.
  func assignsImportMeta(at i: Int) -> Bool {
    let meta = i + 2
    if isPunct(i - 1, "++") || isPunct(i - 1, "--") { return true }
    if tokens.indices.contains(meta + 1), tokens[meta + 1].kind == .punctuator,
      ModuleRewriter.assignmentOperators.contains(text(meta + 1))
    {
      return true
    }
    if (isWord(meta + 1, "of") || isWord(meta + 1, "in")) && opensForHead(i) { return true }
    // [import.meta] = ..., [...import.meta] = ..., ({a: import.meta} = ...), nested ones too.
    var first = i
    var last = meta
    while isPunct(last + 1, ",") || isPunct(last + 1, "]") || isPunct(last + 1, "}") {
      guard let open = enclosingOpen(first), isPunct(open, "[") || isPunct(open, "{") else { return false }
      let before = first - (isPunct(first - 1, "...") ? 2 : 1)
      let element = isPunct(open, "[") ? (before == open || isPunct(before, ",")) : isPunct(before, ":")
      guard element || (isPunct(open, "{") && isPunct(first - 1, "...")) else { return false }
      let close = tokens[open].match
      if isPunct(close + 1, "=") || ((isWord(close + 1, "of") || isWord(close + 1, "in")) && opensForHead(open)) {
        return true
      }
      first = open
      last = close
    }
    return false
  }

  /// Whether token `i` opens the head of a `for (` or `for await (` loop.
  func opensForHead(_ i: Int) -> Bool {
    isPunct(i - 1, "(") && (isWord(i - 2, "for") || (isWord(i - 2, "await") && isWord(i - 3, "for")))
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
}
