import Glibc

/// JS files of the form `(function (a, b) { ... })` made into one script: each file's body inlined
/// as a block of one function, and the text compacted for a cheaper parse. The runtime's prelude
/// is made this way at every process's first start (`PreludeSource.headlessBytes`), and the
/// window's page prelude lists the same files, trimmed.
public enum ScriptFiles {
  /// One function of `(global, internal)` running each file's body in order, each in a block of
  /// its own, returning `internal.hooks`, rather than a function a file. JavaScriptCore compiles each
  /// function it first calls (about 60 k instructions, before its body's own cost): a start runs
  /// every file, so the files as one function save one compile each. A file's parameters named
  /// otherwise (`_global`) are bound at its block's head; its body must not `return` (that would
  /// end them all). A file whose text is not `(function (a, b) { ... })` is called as its own function.
  public static func inline(_ files: [[UInt8]]) -> [UInt8] {
    var source = Array("(function (global, internal) {\n'use strict';\n".utf8)
    source.reserveCapacity(files.reduce(source.count + 100) { $0 + $1.count + 30 })
    for file in files {
      let text = trimmedEnd(file)
      if let (head, names) = inlineHead(text), names.count == 2, text.suffix(2).elementsEqual("})".utf8) {
        source += "{\n".utf8
        for (name, outer) in zip(names, ["global", "internal"]) where name != outer {
          source += "const \(name) = \(outer);\n".utf8
        }
        source += text[head..<(text.count - 2)]
        source += "}\n".utf8
      } else {
        source += [UInt8(ascii: "(")] + text + ")(global, internal);\n".utf8
      }
    }
    source += "return internal.hooks;\n})".utf8
    return source
  }

  /// Where the body of a file `(function (a, b) {` starts (after that line) and its parameters' names.
  /// Over the bytes: the names split and trimmed as Swift strings (by `Character`) cost a start
  /// 0.15 M instructions under callgrind for the eight files' heads.
  private static func inlineHead(_ text: ArraySlice<UInt8>) -> (Int, [String])? {
    let opening = Array("(function (".utf8)
    let closing = Array(") {".utf8)
    return text.withUnsafeBufferPointer { bytes -> (Int, [String])? in
      var lineStart = 0
      while lineStart < bytes.count {
        var lineEnd = lineStart
        while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
        let line = UnsafeBufferPointer(rebasing: bytes[lineStart..<lineEnd])
        if line.starts(with: opening) {
          guard line.count >= opening.count + closing.count, line.suffix(closing.count).elementsEqual(closing) else {
            return nil
          }
          let names = line[opening.count..<(line.count - closing.count)].split(separator: UInt8(ascii: ","))
            .map { String(decoding: $0.filter { $0 != UInt8(ascii: " ") }, as: UTF8.self) }
          return (text.startIndex + min(lineEnd + 1, bytes.count), names)
        }
        lineStart = lineEnd + 1
      }
      return nil
    }
  }

  /// `file` without the newlines, spaces and semicolons at its end.
  public static func trimmedEnd(_ file: [UInt8]) -> ArraySlice<UInt8> {
    var end = file.count
    while end > 0,
      file[end - 1] == UInt8(ascii: "\n") || file[end - 1] == UInt8(ascii: " ") || file[end - 1] == UInt8(ascii: ";")
    {
      end -= 1
    }
    return file[..<end]
  }

  /// The UTF-8 `bytes` of a source without its comment lines (a line that is a `//` comment and nothing else) and
  /// without each line's indentation. JavaScriptCore parses the prelude at every start twice (a
  /// syntax check of the whole, then each file's function as it runs), at about 100 instructions
  /// a byte, comments and indentation included: this drops 40 % of the bytes. Only whole lines
  /// go: a comment after code stays, and the prelude's files have no template literal or string
  /// spanning lines (PreludeSourceTests compares the tokens before and after). The text stays
  /// UTF-8 on its way in (`PreludeText`: JavaScriptCore reads the ASCII bytes where they lie): a
  /// source given as UTF-16 parses into 16-bit strings, 0.3 MiB more at the run's peak.
  public static func compact(bytes: [UInt8]) -> [UInt8] {
    bytes.withUnsafeBufferPointer { utf8 in compact(utf8) }
  }

  /// Each line's end found by `memchr` (a word at a time) and each kept line copied once: a
  /// byte-at-a-time scan and copy cost a start about 0.17 M instructions under callgrind.
  private static func compact(_ utf8: UnsafeBufferPointer<UInt8>) -> [UInt8] {
    guard let base = utf8.baseAddress else { return [] }
    return [UInt8](unsafeUninitializedCapacity: utf8.count + 1) { kept, count in
      count = 0
      var lineStart = 0
      while lineStart < utf8.count {
        let lineEnd =
          memchr(base + lineStart, 0x0A, utf8.count - lineStart).map {
            UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - base
          } ?? utf8.count
        var first = lineStart
        while first < lineEnd, utf8[first] == UInt8(ascii: " ") || utf8[first] == UInt8(ascii: "\t") { first += 1 }
        let isComment =
          first + 1 < lineEnd && utf8[first] == UInt8(ascii: "/") && utf8[first + 1] == UInt8(ascii: "/")
        if first < lineEnd, !isComment {
          (kept.baseAddress! + count).initialize(from: base + first, count: lineEnd - first)
          count += lineEnd - first
          kept[count] = UInt8(ascii: "\n")
          count += 1
        }
        lineStart = lineEnd + 1
      }
    }
  }
}
