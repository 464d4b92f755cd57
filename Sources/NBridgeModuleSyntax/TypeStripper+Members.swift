/// Parameters and class members: where a name is followed by `?`, `!` or a type, and the
/// modifiers only TypeScript has.
extension TypeStrip {
  static let accessModifiers: Set<String> = ["public", "private", "protected", "readonly", "override"]

  /// At a parameter's start: `this: T` erased, a parameter property refused, the name's `?` and
  /// type erased. Returns whether it handled the token.
  mutating func parameter() throws(ModuleSyntaxError) -> Bool {
    let top = frames.count - 1
    guard frames[top].atStart else { return false }
    frames[top].atStart = false
    if isWord(i, "...") {
      frames[top].atStart = true
      i += 1
      return true
    }
    guard let t = token(i) else { return false }
    if t.kind == .identifier {
      let word = text(i)
      if TypeStrip.accessModifiers.contains(word), isIdentifier(i + 1) || isWord(i + 1, "{") || isWord(i + 1, "[") {
        throw error(
          "TypeScript parameter properties ('\(word)' on a constructor parameter) are not supported when types are only stripped: declare the field in the class body and assign it in the constructor",
          at: i)
      }
      if word == "this", isWord(i + 1, ":") {
        var end = skipType(i + 2)
        if isWord(end, ",") { end += 1 }
        blankThrough(i, end)
        i = end
        frames[top].atStart = true
        return true
      }
      i = bindingSuffix(i + 1, declaring: false)
      return true
    }
    if isWord(i, "{") || isWord(i, "[") {
      open(.bracket, afterClose: .binding)
      return true
    }
    return false
  }

  static let memberModifiers: Set<String> = [
    "public", "private", "protected", "readonly", "override", "abstract", "declare", "static", "async", "get", "set",
    "accessor",
  ]
  static let erasedModifiers: Set<String> = ["public", "private", "protected", "readonly", "override"]

  /// Whether token `k` can start a class member's name (after a modifier).
  func startsMemberName(_ k: Int) -> Bool {
    guard let t = token(k) else { return false }
    switch t.kind {
    case .identifier, .string, .number, .privateName: return true
    case .punctuator: return isWord(k, "[") || isWord(k, "*") || isWord(k, "#")
    default: return false
    }
  }

  /// A class member's head at `i`: modifiers, name, `?`/`!`, type parameters, type. Members with
  /// no code (`declare`, `abstract`, index signatures) are erased whole; a method's parameters are
  /// opened as overloadable. Returns whether it handled the token.
  mutating func memberHead() -> Bool {
    let start = i
    var j = i
    var erasedWhole = false
    while isIdentifier(j), TypeStrip.memberModifiers.contains(text(j)), startsMemberName(j + 1) {
      let word = text(j)
      if word == "declare" || word == "abstract" { erasedWhole = true }
      if TypeStrip.erasedModifiers.contains(word) { blank(j, j + 1) }
      j += 1
    }
    let indexSignature = isWord(j, "[") && isIdentifier(j + 1) && isWord(j + 2, ":")
    if erasedWhole || indexSignature {
      let end = statementEnd(from: j)
      blankThrough(start, end)
      i = end
      frames[frames.count - 1].atStart = true
      return true
    }
    if isWord(j, "*") { j += 1 }
    guard let t = token(j) else { return false }
    switch t.kind {
    case .identifier, .string, .number, .privateName: j += 1
    case .punctuator where isWord(j, "[") && t.match > j: j = t.match + 1
    default:
      i = j
      return j > start
    }
    if isWord(j, "?") || (isWord(j, "!") && isWord(j + 1, ":")) {
      blank(j, j + 1)
      j += 1
    }
    if isWord(j, "<") {
      let end = skipAngles(j) ?? j + 1
      blank(j, end)
      j = end
    }
    if isWord(j, "(") {
      pendingParams = .functionParams(start: start, overloadable: true)
    } else if isWord(j, ":") {
      let end = skipType(j + 1)
      blank(j, end)
      j = end
    }
    i = j
    return true
  }

  /// In `import {...}` or `export {...}`: `type Name [as Alias]` erased with its comma.
  mutating func specifier() {
    let top = frames.count - 1
    if isWord(i, ",") {
      frames[top].atStart = true
      i += 1
      return
    }
    if frames[top].atStart, isWord(i, "type"), isIdentifier(i + 1) || token(i + 1)?.kind == .string,
      !isWord(i + 1, "as") || isIdentifier(i + 2)
    {
      var end = i + 2
      if isWord(end, "as") { end += 2 }
      if isWord(end, ",") { end += 1 }
      blankThrough(i, end)
      i = end
      return
    }
    frames[top].atStart = false
    i += 1
  }
}
