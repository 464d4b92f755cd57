import NBridgeModuleSyntax
import NBridgeRuntime
import Testing

/// The headless prelude as JavaScriptCore gets it: its files composed, then compacted
/// (comment lines and indentation left out) for a cheaper parse at every start.
@Suite struct PreludeSourceTests {
  /// What the parser sees of a token: its kind, its text and whether a line ends before it (ASI;
  /// not for the first token, which comment lines may precede).
  private func tokens(_ units: [UInt16]) throws -> [String] {
    try Lexer.tokenize(units).enumerated().map { index, token in
      "\(token.kind) \(index > 0 && token.newlineBefore) "
        + String(decoding: units[token.start..<token.end], as: UTF16.self)
    }
  }

  /// Compacting drops nothing the parser reads: the same tokens, the same line breaks between them.
  @Test func compactingKeepsEveryToken() throws {
    let composed = Array(PreludeSource.compose(PreludeSource.headlessFiles).utf16)
    let original = try tokens(composed)
    #expect(original.count > 1000)
    #expect(try tokens(PreludeSource.headless(scripts: [])) == original)
  }

  /// Each file's own compacted tokens are its tokens too (a file's text, not only the whole).
  @Test func eachFileKeepsItsTokens() throws {
    for file in PreludeSource.headlessFiles {
      let text = String(decoding: file, as: UTF8.self)
      #expect(try tokens(PreludeSource.compactUnits(text)) == tokens(Array(text.utf16)))
    }
  }

  /// What goes is whole comment lines and indentation, about a third of the text.
  @Test func commentLinesAndIndentationGo() {
    let composed = PreludeSource.compose(PreludeSource.headlessFiles)
    let compact = String(decoding: PreludeSource.headless(scripts: []), as: UTF16.self)
    #expect(compact.count < composed.count * 7 / 10)
    let lines = compact.split(separator: "\n")
    #expect(!lines.contains { $0.hasPrefix("//") || $0.hasPrefix(" ") || $0.hasPrefix("\t") })
    #expect(
      PreludeSource.compactUnits("  a();\n  // note\n\t\tb(); // kept\n\n") == Array("a();\nb(); // kept\n".utf16))
    #expect(PreludeSource.compactUnits("last()") == Array("last()\n".utf16), "a last line without its newline")
  }

  /// Text beyond ASCII keeps its characters (as UTF-16).
  @Test func textBeyondASCIIIsKept() {
    #expect(PreludeSource.compactUnits("  s = 'é→😀';\n") == Array("s = 'é→😀';\n".utf16))
  }
}
