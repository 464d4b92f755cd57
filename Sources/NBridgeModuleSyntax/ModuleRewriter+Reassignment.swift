// Which exported bindings may change after their declaration (those keep a getter).
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

  /// The operators that assign to what is on their left (or, for `++`/`--`, beside them).
  static let assignmentOperators: Set<String> = [
    "=", "+=", "-=", "*=", "/=", "%=", "**=", "<<=", ">>=", ">>>=", "&=", "|=", "^=", "&&=", "||=", "??=", "++", "--",
  ]
}
