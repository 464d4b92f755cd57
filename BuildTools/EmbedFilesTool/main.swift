// The EmbedFiles plugin's tool: `EmbedFilesTool OUTPUT FILE...` writes OUTPUT, a Swift file with
// one `[UInt8]` per FILE under `EmbeddedFiles`, named for the file (`fetch-body.js` is
// `fetch_body_js`). Each file is one string literal: the compiler reads it as it reads any text,
// where an array literal of its bytes (SwiftPM's `.embedInCode`) took ~12 s of CPU a build for
// NBridgeWeb's 200 KB of JS. Glibc only: the tool is built on every machine that builds nbridge.
import Glibc

/// Stops the build with `message` on stderr.
func fail(_ message: String) -> Never {
  let line = "EmbedFilesTool: \(message)\n"
  _ = line.utf8.withContiguousStorageIfAvailable { write(2, $0.baseAddress, $0.count) }
  exit(1)
}

/// The bytes of the file at `path`.
func contents(of path: String) -> [UInt8] {
  guard let file = fopen(path, "rb") else { fail("cannot read \(path): \(String(cString: strerror(errno)))") }
  defer { fclose(file) }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 65536)
  while true {
    let count = fread(&chunk, 1, chunk.count, file)
    bytes += chunk[0..<count]
    if count < chunk.count { break }
  }
  if ferror(file) != 0 { fail("cannot read \(path)") }
  return bytes
}

/// The Swift name of the file at `path`: its last component, each character that is not an
/// ASCII letter or digit made `_` (`_` first if it starts with a digit).
func identifier(_ path: String) -> String {
  let name = path.split(separator: "/").last.map(String.init) ?? path
  var result = String(
    name.unicodeScalars.map {
      $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) ? Character($0) : "_"
    })
  if let first = result.unicodeScalars.first, ("0"..."9").contains(first) { result = "_" + result }
  return result
}

/// `bytes` (UTF-8) as the body of a Swift string literal: printable ASCII as it is (but `\` and
/// `"`), every other scalar escaped (`\n`, `\u{2028}`), so the literal is one line whatever the file holds.
func literal(_ bytes: [UInt8], path: String) -> String {
  guard let text = String(validating: bytes, as: UTF8.self) else { fail("\(path) is not UTF-8 text") }
  var out = ""
  out.reserveCapacity(bytes.count + bytes.count / 8)
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\\": out += "\\\\"
    case "\"": out += "\\\""
    case "\n": out += "\\n"
    case "\t": out += "\\t"
    case " "..."~": out.unicodeScalars.append(scalar)
    default: out += "\\u{" + String(scalar.value, radix: 16) + "}"
    }
  }
  return out
}

let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first else { fail("usage: EmbedFilesTool OUTPUT FILE...") }
var source = "// Written by the EmbedFiles build tool plugin (BuildTools/EmbedFiles): do not edit.\n\n"
source += "/// The files embedded in this module at build time, by name (`fetch-body.js` is `fetch_body_js`).\n"
source += "enum EmbeddedFiles {\n"
var seen: [String: String] = [:]
for path in arguments.dropFirst().sorted(by: { identifier($0) < identifier($1) }) {
  let name = identifier(path)
  if let other = seen[name] { fail("\(path) and \(other) would both be EmbeddedFiles.\(name)") }
  seen[name] = path
  source += "  /// The bytes of `\(path.split(separator: "/").last ?? "")`.\n"
  source += "  static let \(name): [UInt8] = Array(\"\(literal(contents(of: path), path: path))\".utf8)\n"
}
source += "}\n"
// The same text is not written again: the file keeps its time, and the module is not compiled
// again. The build runs this tool whenever the tool itself was linked anew, which a build with
// `-Xswiftc` flags does at every `swift build` (the plugin's tools are built once without them).
if access(output, F_OK) == 0, contents(of: output).elementsEqual(source.utf8) { exit(0) }
guard let file = fopen(output, "wb") else { fail("cannot write \(output): \(String(cString: strerror(errno)))") }
let written = source.utf8.withContiguousStorageIfAvailable { fwrite($0.baseAddress, 1, $0.count, file) } ?? 0
if written != source.utf8.count || fclose(file) != 0 { fail("cannot write \(output)") }
