extension ModuleRecordInfo {
  /// The record as a JS object literal, what the loader reads (`requests`, `imports`, `exports`,
  /// `stars`, `tla`, `defaultLocal`, `shifts`): written into the rewritten script itself.
  public var literal: String {
    var out = "{requests:["
    for (k, r) in requests.enumerated() {
      if k > 0 { out += "," }
      out += "{specifier:" + Self.quoted(r.specifier) + ",type:" + (r.type.map(Self.quoted) ?? "null")
      out += ",line:\(r.line),column:\(r.column)}"
    }
    out += "],imports:["
    for (k, i) in imports.enumerated() {
      if k > 0 { out += "," }
      out += "{local:" + Self.quoted(i.local) + ",name:" + Self.quoted(i.name)
      out += ",request:\(i.request),line:\(i.line),column:\(i.column)}"
    }
    out += "],exports:["
    for (k, e) in exports.enumerated() {
      if k > 0 { out += "," }
      out += "{name:" + Self.quoted(e.name) + ",line:\(e.line),column:\(e.column)"
      if let local = e.localName { out += ",local:" + Self.quoted(local) }
      if let request = e.request { out += ",request:\(request)" }
      if let importName = e.importName { out += ",importName:" + Self.quoted(importName) }
      out += "}"
    }
    out += "],stars:[" + starExports.map { String($0) }.joined(separator: ",") + "]"
    out += ",tla:" + (hasTopLevelAwait ? "true" : "false")
    out += ",defaultLocal:" + (defaultLocal.map(Self.quoted) ?? "null")
    out += ",shifts:[" + columnShifts.map { "[" + $0.map { String($0) }.joined(separator: ",") + "]" }.joined(separator: ",")
    return out + "]}"
  }

  /// `text` as a double-quoted JS string literal.
  static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      default:
        guard scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029 else {
          out.unicodeScalars.append(scalar)
          continue
        }
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      }
    }
    return out + "\""
  }
}
