// Every use of an imported name rewritten to read through the module's import record.
extension ModuleRewriter {
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
}
