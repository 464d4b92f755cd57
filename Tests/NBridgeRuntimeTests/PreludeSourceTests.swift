import NBridgeConsole
import NBridgeModuleSyntax
import NBridgeRuntime
import NBridgeWeb
import Testing

/// The headless prelude as JavaScriptCore gets it: its files' bodies composed into one function,
/// then compacted (comment lines and indentation left out) for a cheaper parse at every start.
@Suite struct PreludeSourceTests {
  /// The global files of the extensions every headless run of the CLI has (the console's and the web APIs').
  private let scripts = (ConsoleExtension.make().globalScripts + WebExtension.make().globalScripts).map(\.source)

  /// The headless files composed into one function, before compacting.
  private var inlined: [UInt8] { ScriptFiles.inline(PreludeSource.headlessFiles(scripts: scripts)) }

  /// UTF-8 bytes as a string.
  private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

  /// `source` compacted (`ScriptFiles.compact(bytes:)`).
  private func compact(_ source: String) -> String { text(ScriptFiles.compact(bytes: Array(source.utf8))) }

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
    let composed = Array(text(inlined).utf16)
    let original = try tokens(composed)
    #expect(original.count > 1000)
    #expect(try tokens(Array(text(PreludeSource.headlessBytes(scripts: scripts)).utf16)) == original)
  }

  /// The files run as blocks of one function (JavaScriptCore compiles each function it calls, about
  /// 60 k instructions a start): one function head in the whole, each file's body in it with its
  /// own tokens, a parameter named otherwise bound at its block's head.
  @Test func theFilesRunAsBlocksOfOneFunction() throws {
    let files = PreludeSource.headlessFiles(scripts: scripts)
    let whole = text(inlined)
    #expect(whole.hasPrefix("(function (global, internal) {\n'use strict';\n"))
    #expect(whole.split(separator: "(function (", omittingEmptySubsequences: false).count == 2, "a file kept its own function")
    #expect(whole.contains("{\nconst _global = global;\n"), "hooks.js names its unused parameter _global")
    let wholeTokens = try tokens(Array(whole.utf16)).joined(separator: "\n")
    for file in files {
      let fileTokens = try tokens(Array(text(file).utf16))
      let opening = try #require(fileTokens.firstIndex { $0.hasSuffix(" {") })
      // The body: after `(function (a, b) {`, before the `})` that ends the file (and its `;`).
      let body = fileTokens[(opening + 1)...].dropLast(fileTokens.last?.hasSuffix(";") == true ? 3 : 2)
      #expect(wholeTokens.contains(body.joined(separator: "\n")))
    }
    let odd = text(ScriptFiles.inline([Array("(function (a) {\na();\n});\n".utf8)]))
    #expect(odd.contains("((function (a) {\na();\n}))(global, internal);\n"), "a file of another shape is called")
  }

  /// Each file's own compacted tokens are its tokens too (a file's text, not only the whole).
  @Test func eachFileKeepsItsTokens() throws {
    for file in PreludeSource.headlessFiles(scripts: scripts) {
      let text = String(decoding: file, as: UTF8.self)
      #expect(try tokens(Array(compact(text).utf16)) == tokens(Array(text.utf16)))
    }
  }

  /// What goes is whole comment lines and indentation, about a third of the text.
  @Test func commentLinesAndIndentationGo() {
    let composed = text(inlined)
    let compact = text(PreludeSource.headlessBytes(scripts: scripts))
    #expect(compact.count < composed.count * 7 / 10)
    let lines = compact.split(separator: "\n")
    #expect(!lines.contains { $0.hasPrefix("//") || $0.hasPrefix(" ") || $0.hasPrefix("\t") })
    #expect(self.compact("  a();\n  // note\n\t\tb(); // kept\n\n") == "a();\nb(); // kept\n")
    #expect(self.compact("last()") == "last()\n", "a last line without its newline")
    #expect(self.compact("") == "")
    #expect(self.compact("\n  \n\t\n// only\n") == "", "blank and comment lines only")
    #expect(self.compact("a\n\nb") == "a\nb\n", "lines found with memchr, the last without its newline")
  }

  /// Text beyond ASCII keeps its characters.
  @Test func textBeyondASCIIIsKept() {
    #expect(compact("  s = 'é→😀';\n") == "s = 'é→😀';\n")
  }

  /// The text JavaScriptCore reads in place: made once a process, the same bytes as the
  /// compacted prelude, and ASCII (JavaScriptCore takes text beyond it only as a copied string).
  @Test func theImmortalTextIsTheCompactedPreludeMadeOnce() {
    let first = PreludeText.headless(scripts: scripts)
    let again = PreludeText.headless(scripts: scripts)
    #expect(first.baseAddress == again.baseAddress)
    #expect(Array(first) == PreludeSource.headlessBytes(scripts: scripts))
    #expect(first.allSatisfy { $0 < 0x80 }, "a character beyond ASCII in a prelude file")
    let other = PreludeText.headless(scripts: [])
    #expect(other.baseAddress != first.baseAddress)
    #expect(Array(other) == PreludeSource.headlessBytes(scripts: []))
  }
}
