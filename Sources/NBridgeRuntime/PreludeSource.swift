/// The prelude: the JavaScript files in `Sources/NBridgeRuntime/JS`, one concern a file, embedded
/// at build time. Each file is a function of `(global, internal)`; `internal` carries what one
/// file hands the next (`native`, `services`, `args`, `inspect`, ...) and, last, the `hooks`
/// the runtime calls.
package enum PreludeSource {
  /// The core's files of a headless run's prelude, in order; the extensions' global files go
  /// before the last (`hooks.js`).
  package static let headlessFiles = [
    PackageResources.console_js, PackageResources.webassembly_js, PackageResources.timers_js,
    PackageResources.lazy_js, PackageResources.page_shims_js, PackageResources.deferred_js,
    PackageResources.web_net_js, PackageResources.hooks_js,
  ]

  /// A headless run's prelude: a function of `(global, internal)` returning the hooks, with the
  /// extensions' global files (`scripts`) after the core's own and before `hooks.js`, as the
  /// UTF-16 units JavaScriptCore evaluates (`compactUnits`).
  package static func headless(scripts: [[UInt8]]) -> [UInt16] {
    compactUnits(compose(headlessFiles.dropLast() + scripts + headlessFiles.suffix(1)))
  }

  /// The files `deferred.js` and `console.js` register: evaluated by `native.loadDeferred` on first touch.
  static let deferred: [String: [UInt8]] = [
    "bridge": PackageResources.bridge_js, "wkbridge": PackageResources.wkbridge_js,
    "require": PackageResources.require_js, "inspect": PackageResources.inspect_js,
  ]

  /// A page's prelude (`nbridge app`): the same `nbridge` object over the window's messages:
  /// the formatter and console, the window's `transport` files (its `native` over messages, its
  /// timers), `bridge.js`, then `scripts` (the extensions' `nbridge` files and the window's own).
  package static func page(transport: [[UInt8]], scripts: [[UInt8]]) -> String {
    compose(
      [PackageResources.inspect_js, PackageResources.console_js] + transport + [PackageResources.bridge_js] + scripts)
  }

  /// `source` as UTF-16 units without its comment lines (a line that is a `//` comment and
  /// nothing else) and without each line's indentation. JavaScriptCore parses the prelude at
  /// every start twice (a syntax check of the whole, then each file's function as it runs), at
  /// about 100 instructions a byte, comments and indentation included: this drops 40 % of the
  /// bytes. Units, not a Swift string, spare `JSStringCreateWithUTF8CString`'s conversion (40
  /// instructions a byte). Only whole lines go: a comment after code stays, and the prelude's
  /// files have no template literal or string spanning lines (PreludeSourceTests compares the
  /// tokens before and after).
  package static func compactUnits(_ source: String) -> [UInt16] {
    var text = source
    return text.withUTF8 { utf8 -> [UInt16] in
      // Each kept line as the offsets of its first and its last byte, past the indentation.
      func forEachKeptLine(_ body: (Int, Int) -> Void) {
        var lineStart = 0
        while lineStart < utf8.count {
          var lineEnd = lineStart
          while lineEnd < utf8.count, utf8[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
          var first = lineStart
          while first < lineEnd, utf8[first] == UInt8(ascii: " ") || utf8[first] == UInt8(ascii: "\t") { first += 1 }
          let isComment =
            first + 1 < lineEnd && utf8[first] == UInt8(ascii: "/") && utf8[first + 1] == UInt8(ascii: "/")
          if first < lineEnd, !isComment { body(first, lineEnd) }
          lineStart = lineEnd + 1
        }
      }
      guard !utf8.contains(where: { $0 >= 0x80 }) else {
        var kept: [UInt8] = []
        forEachKeptLine { first, end in
          kept.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[first..<end]))
          kept.append(UInt8(ascii: "\n"))
        }
        return Array(String(decoding: kept, as: UTF8.self).utf16)
      }
      // ASCII, the prelude's text: each byte is its UTF-16 unit.
      return [UInt16](unsafeUninitializedCapacity: utf8.count + 1) { units, count in
        forEachKeptLine { first, end in
          for index in first..<end { units[count + index - first] = UInt16(utf8[index]) }
          count += end - first
          units[count] = UInt16(UInt8(ascii: "\n"))
          count += 1
        }
      }
    }
  }

  /// One function calling each file's function in order with the same `global` and `internal`.
  package static func compose(_ files: [[UInt8]]) -> String {
    var source = "(function (global, internal) {\nconst parts = [\n"
    for file in files {
      var text = String(decoding: file, as: UTF8.self)
      while let last = text.last, last == "\n" || last == " " || last == ";" { text.removeLast() }
      source += text + ",\n"
    }
    source += "];\nfor (const part of parts) part(global, internal);\nreturn internal.hooks;\n})"
    return source
  }
}
