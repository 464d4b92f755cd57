/// Where a type ends: a small grammar of TypeScript's types (unions, intersections, conditional,
/// function and constructor types, literals, object and tuple types, type operators, predicates,
/// type arguments, array and indexed-access suffixes). Brackets are skipped whole by their match.
extension TypeStrip {
  /// The index after the type starting at `k` (`k` itself when nothing there can start a type).
  func skipType(_ k: Int, conditional: Bool = true) -> Int {
    var j = k
    if isWord(j, "|") || isWord(j, "&") { j += 1 }
    j = skipOperand(j)
    while isWord(j, "|") || isWord(j, "&") {
      let next = skipOperand(j + 1)
      guard next > j + 1 else { return j }
      j = next
    }
    if conditional, isWord(j, "extends"), token(j)?.newlineBefore == false {
      let check = skipType(j + 1, conditional: false)
      guard isWord(check, "?") else { return j }
      let yes = skipType(check + 1)
      guard isWord(yes, ":") else { return j }
      return skipType(yes + 1)
    }
    return j
  }

  static let typeOperators: Set<String> = ["keyof", "unique", "readonly", "asserts", "infer"]

  /// The index after one operand of a union: prefixes, a primary type, then `[]`/`[K]` suffixes.
  func skipOperand(_ k: Int) -> Int {
    var j = k
    while isIdentifier(j), TypeStrip.typeOperators.contains(text(j)), startsType(j + 1) {
      if isWord(j, "infer") {
        j += 2
        if isWord(j, "extends") {
          let bound = skipType(j + 1, conditional: false)
          // `infer U extends X ? ...` reads as a conditional; the bound is taken only when no `?` follows.
          if !isWord(bound, "?") { j = bound }
        }
        return suffixes(j)
      }
      j += 1
    }
    guard let t = token(j) else { return j }
    switch t.kind {
    case .string, .number, .template:
      return suffixes(j + 1)
    case .templateOpen:
      var piece = j
      while let p = token(piece), p.kind == .templateOpen, p.match > piece { piece = p.match }
      return suffixes(piece + 1)
    case .identifier:
      let word = text(j)
      if word == "new" || (word == "abstract" && isWord(j + 1, "new")) {
        return functionType(word == "new" ? j + 1 : j + 2)
      }
      if word == "typeof" {
        j += 1
        if isWord(j, "import"), let open = token(j + 1), isWord(j + 1, "("), open.match > j { j = open.match + 1 } else { j += 1 }
        return suffixes(typeArguments(qualifiedName(j)))
      }
      if word == "import", isWord(j + 1, "("), let open = token(j + 1), open.match > j + 1 {
        return suffixes(typeArguments(qualifiedName(open.match + 1)))
      }
      j = typeArguments(qualifiedName(j + 1))
      if isWord(j, "is"), token(j)?.newlineBefore == false { return skipType(j + 1) }
      return suffixes(j)
    case .punctuator:
      if isWord(j, "-"), token(j + 1)?.kind == .number { return suffixes(j + 2) }
      if isWord(j, "<") || isWord(j, "(") { return functionType(j) }
      if (isWord(j, "{") || isWord(j, "[")) && t.match > j { return suffixes(t.match + 1) }
      return j
    default:
      return j
    }
  }

  /// Whether token `k` can start a type (for telling `keyof T` from a type named `keyof`).
  func startsType(_ k: Int) -> Bool {
    guard let t = token(k) else { return false }
    switch t.kind {
    case .identifier, .string, .number, .template, .templateOpen: return true
    case .punctuator: return isWord(k, "{") || isWord(k, "[") || isWord(k, "(") || isWord(k, "-")
    default: return false
    }
  }

  /// After `.name` parts that follow the identifier ending before `k`.
  func qualifiedName(_ k: Int) -> Int {
    var j = k
    while isWord(j, "."), isIdentifier(j + 1) || token(j + 1)?.kind == .privateName { j += 2 }
    return j
  }

  /// After type arguments `<...>` at `k`, or `k` when there are none.
  func typeArguments(_ k: Int) -> Int {
    guard isWord(k, "<"), token(k)?.newlineBefore == false, let end = skipAngles(k) else { return k }
    return end
  }

  /// After `[]` and `[K]` suffixes (on the type's line) from `k`.
  func suffixes(_ k: Int) -> Int {
    var j = k
    while isWord(j, "["), let t = token(j), !t.newlineBefore, t.match > j { j = t.match + 1 }
    return j
  }

  /// A parenthesized type, or a function type `<T>(params) => R` from `k`.
  func functionType(_ k: Int) -> Int {
    var j = k
    if isWord(j, "<") {
      guard let end = skipAngles(j) else { return j }
      j = end
    }
    guard isWord(j, "("), let t = token(j), t.match > j else { return j }
    j = t.match + 1
    if isWord(j, "=>") { return skipType(j + 1) }
    return suffixes(j)
  }

  /// Punctuators that cannot appear at the top level of type arguments: `a < b && c > d` is a comparison.
  static let notInTypeArguments: Set<String> = [
    "&&", "||", "??", "+", "*", "/", "%", "==", "===", "!=", "!==", "=", ";", "!", "++", "--", "<=", "+=", "-=", "*=",
    "/=", "%=", "&&=", "||=", "??=", "**", "<<", "^", "~", "@", "#",
  ]

  /// After the angle brackets opening at `k` (type parameters or arguments), brackets inside
  /// skipped by their match; nil when they do not close. In an expression a `<` that reaches an
  /// operator no type holds is a comparison (nil).
  func skipAngles(_ k: Int, inExpression: Bool = false) -> Int? {
    var depth = 0
    var j = k
    while let t = token(j) {
      if t.kind == .punctuator {
        if opens(j) {
          j = t.match + 1
          continue
        }
        if t.match >= 0 && t.match < j { return nil }
        let word = text(j)
        if inExpression && word.hasSuffix(">=") { return nil }
        switch word {
        case "<": depth += 1
        case ">", ">=": depth -= 1
        case ">>", ">>=": depth -= 2
        case ">>>", ">>>=": depth -= 3
        case let other where inExpression && TypeStrip.notInTypeArguments.contains(other): return nil
        case ";": return nil
        default: break
        }
        if depth <= 0 { return j + 1 }
      } else if t.kind == .templateOpen {
        guard t.match > j else { return nil }
        var piece = j
        while let p = token(piece), p.kind == .templateOpen, p.match > piece { piece = p.match }
        j = piece
      } else if inExpression, t.kind == .regex {
        return nil
      }
      j += 1
    }
    return nil
  }
}
