/// Inside expressions: `as`, `satisfies`, non-null `!`, type arguments, arrow functions' and
/// functions' annotated parameters, classes' heritage, declarations' bindings.
extension TypeStrip {
  mutating func expression() throws(ModuleSyntaxError) {
    guard let t = token(i) else { return }
    let top = frames.count - 1
    if frames[top].expectBinding {
      frames[top].expectBinding = false
      if t.kind == .identifier {
        i = bindingSuffix(i + 1, declaring: true)
        return
      }
      if isWord(i, "{") || isWord(i, "[") {
        open(.bracket, afterClose: .binding)
        return
      }
    }
    switch t.kind {
    case .identifier: try word()
    case .templateOpen: open(.substitution)
    case .punctuator: try punctuator()
    default: i += 1
    }
  }

  mutating func word() throws(ModuleSyntaxError) {
    let top = frames.count - 1
    let word = text(i)
    let afterDot = isWord(i - 1, ".") || isWord(i - 1, "?.")
    if afterDot {
      i += 1
      return
    }
    switch word {
    case "let", "const", "var":
      if isIdentifier(i + 1) || isWord(i + 1, "{") || isWord(i + 1, "[") {
        frames[top].declaring = true
        frames[top].expectBinding = true
      }
      i += 1
    case "as", "satisfies":
      guard let t = token(i), !t.newlineBefore, endsExpression(i - 1), !isWord(i - 1, "*") else {
        i += 1
        return
      }
      let end = isWord(i + 1, "const") ? i + 2 : skipType(i + 1)
      blank(i, end)
      i = end
    case "function":
      var j = i + 1
      if isWord(j, "*") { j += 1 }
      if isIdentifier(j) { j += 1 }
      if isWord(j, "<") {
        let end = skipAngles(j) ?? j + 1
        blank(j, end)
        j = end
      }
      let start = declarationStart(i)
      pendingParams = .functionParams(start: start, overloadable: frames[top].kind == .block)
      i = j
    case "class":
      classHeader()
    default:
      i += 1
    }
  }

  /// Where the declaration whose keyword is token `k` starts: before `export`, `default`, `async`.
  func declarationStart(_ k: Int) -> Int {
    var s = k
    while isWord(s - 1, "async") || isWord(s - 1, "export") || isWord(s - 1, "default") || isWord(s - 1, "declare") {
      s -= 1
    }
    return s
  }

  /// `class Name<T> extends Base<U> implements I, J {`: type parameters, type arguments and
  /// `implements` erased; `i` moves to the body's `{`.
  mutating func classHeader() {
    var j = i + 1
    if isIdentifier(j), !isWord(j, "extends"), !isWord(j, "implements") { j += 1 }
    if isWord(j, "<") {
      let end = skipAngles(j) ?? j + 1
      blank(j, end)
      j = end
    }
    if isWord(j, "extends") {
      j += 1
      // The base is an expression; only `Name.Name<T>` is followed here.
      while isIdentifier(j) && isWord(j + 1, ".") { j += 2 }
      if isIdentifier(j) {
        j += 1
        if isWord(j, "<"), let end = skipAngles(j) {
          blank(j, end)
          j = end
        }
      }
    }
    if isWord(j, "implements") {
      var end = j + 1
      while true {
        end = skipType(end, conditional: false)
        guard isWord(end, ",") else { break }
        end += 1
      }
      blank(j, end)
      j = end
    }
    i = j
  }

  mutating func punctuator() throws(ModuleSyntaxError) {
    let top = frames.count - 1
    guard let t = token(i) else { return }
    if isWord(i, ",") {
      if frames[top].declaring { frames[top].expectBinding = true }
      if frames[top].kind == .params { frames[top].atStart = true }
      i += 1
      return
    }
    if isWord(i, ";") {
      frames[top].declaring = false
      frames[top].expectBinding = false
      i += 1
      return
    }
    if isWord(i, "!") {
      // A non-null assertion: right after an operand, on its line.
      if !t.newlineBefore, endsExpression(i - 1), !closesStatementHead(i - 1) { blank(i, i + 1) }
      i += 1
      return
    }
    if isWord(i, "<") {
      if endsExpression(i - 1) {
        // `f<T>(x)`, `new Map<K, V>()`, f<T>`...`: type arguments when a call follows.
        if let end = skipAngles(i, inExpression: true),
          isWord(end, "(") || token(end)?.kind == .template || token(end)?.kind == .templateOpen
        {
          blank(i, end)
          i = end
          return
        }
      } else if let end = skipAngles(i), isWord(end, "("), arrowReturn(end) != nil {
        // `<T>(x: T) => x`
        blank(i, end)
        i = end
        return
      }
      i += 1
      return
    }
    guard opens(i) else {
      i += 1
      return
    }
    if isWord(i, "(") {
      openParen()
    } else if isWord(i, "{") {
      let kind: Kind
      switch t.brace {
      case .classBody: kind = .classBody
      case .object: kind = .object
      default: kind = .block
      }
      open(kind)
    } else {
      open(.bracket)
    }
  }

  /// Whether token `k` is the `)` of `if (...)`, `while (...)`, `for (...)` or `with (...)`.
  func closesStatementHead(_ k: Int) -> Bool {
    guard isWord(k, ")"), let open = token(k)?.match else { return false }
    return isWord(open - 1, "if") || isWord(open - 1, "while") || isWord(open - 1, "for") || isWord(open - 1, "with")
  }

  /// For the `(` at `k`: when its `)` is followed by `=>`, or by `: T =>`, the arrow's return
  /// type's tokens (empty when there is none).
  func arrowReturn(_ k: Int) -> Range<Int>? {
    guard let t = token(k), t.match > k else { return nil }
    let after = t.match + 1
    if isWord(after, "=>") { return after..<after }
    guard isWord(after, ":"), !isWord(k - 1, "?") else { return nil }
    let end = skipType(after + 1)
    return isWord(end, "=>") && token(end)?.newlineBefore == false ? after..<end : nil
  }

  mutating func openParen() {
    let top = frames.count - 1
    if let pending = pendingParams {
      pendingParams = nil
      open(.params, afterClose: pending)
      return
    }
    if isWord(i - 1, "catch") {
      open(.params)
      return
    }
    if let returnType = arrowReturn(i) {
      open(.params, afterClose: .arrowParams(from: returnType.lowerBound, to: returnType.upperBound))
      return
    }
    // An object literal's method: `name(...) {` or `name(...): T {`.
    if frames[top].kind == .object, let close = token(i)?.match,
      isIdentifier(i - 1) || token(i - 1)?.kind == .string || isWord(i - 1, "]"),
      isWord(close + 1, "{") || isWord(close + 1, ":")
    {
      open(.params, afterClose: .functionParams(start: i, overloadable: false))
      return
    }
    open(.paren)
  }
}
