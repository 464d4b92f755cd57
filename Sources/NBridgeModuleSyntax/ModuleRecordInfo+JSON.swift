extension ModuleRecordInfo {
  /// The record as JSON text in UTF-16, what the loader reads with `JSON.parse` (`requests`,
  /// `imports`, `exports`, `stars`, `tla`, `defaultLocal`, `shifts`): written unit by unit, with
  /// no Swift string made on the way (a graph of small modules pays for this once per module).
  public var json: [UInt16] {
    var out = JSONUnits()
    out.raw("{\"requests\":[")
    for (k, r) in requests.enumerated() {
      out.raw(k > 0 ? ",{\"specifier\":" : "{\"specifier\":")
      out.string(r.specifier)
      out.raw(",\"type\":")
      if let type = r.type { out.string(type) } else { out.raw("null") }
      out.position(r.line, r.column)
    }
    out.raw("],\"imports\":[")
    for (k, i) in imports.enumerated() {
      out.raw(k > 0 ? ",{\"local\":" : "{\"local\":")
      out.string(i.local)
      out.raw(",\"name\":")
      if let name = i.name { out.string(name) } else { out.raw("null") }
      out.raw(",\"request\":")
      out.number(i.request)
      out.position(i.line, i.column)
    }
    out.raw("],\"exports\":[")
    for (k, e) in exports.enumerated() {
      out.raw(k > 0 ? ",{\"name\":" : "{\"name\":")
      out.string(e.name)
      if let local = e.localName {
        out.raw(",\"local\":")
        out.string(local)
      }
      if let request = e.request {
        out.raw(",\"request\":")
        out.number(request)
      }
      if let importName = e.importName {
        out.raw(",\"importName\":")
        out.string(importName)
      }
      out.position(e.line, e.column)
    }
    out.raw("],\"stars\":[")
    for (k, star) in starExports.enumerated() {
      if k > 0 { out.raw(",") }
      out.number(star)
    }
    out.raw(hasTopLevelAwait ? "],\"tla\":true,\"defaultLocal\":" : "],\"tla\":false,\"defaultLocal\":")
    if let local = defaultLocal { out.string(local) } else { out.raw("null") }
    out.raw(",\"shifts\":[")
    for (k, shift) in columnShifts.enumerated() {
      out.raw(k > 0 ? ",[" : "[")
      for (n, value) in shift.enumerated() {
        if n > 0 { out.raw(",") }
        out.number(value)
      }
      out.raw("]")
    }
    out.raw("]}")
    return out.units
  }
}

/// JSON text built as UTF-16 code units.
struct JSONUnits {
  var units: [UInt16] = []

  init() { units.reserveCapacity(256) }

  /// ASCII text as is.
  mutating func raw(_ text: StaticString) {
    text.withUTF8Buffer { for byte in $0 { units.append(UInt16(byte)) } }
  }

  /// A non-negative integer in decimal.
  mutating func number(_ value: Int) {
    guard value >= 10 else {
      units.append(48 + UInt16(max(0, value)))
      return
    }
    number(value / 10)
    units.append(48 + UInt16(value % 10))
  }

  /// `,"line":L,"column":C}`: where a request, import or export is written, closing its object.
  mutating func position(_ line: Int, _ column: Int) {
    raw(",\"line\":")
    number(line)
    raw(",\"column\":")
    number(column)
    raw("}")
  }

  /// `text` as a JSON string.
  mutating func string(_ text: String) {
    units.append(34)
    for unit in text.utf16 {
      switch unit {
      case 34, 92:
        units.append(92)
        units.append(unit)
      case 0..<0x20:
        raw("\\u00")
        units.append(unit < 0x10 ? 48 : 49)
        let low = unit & 0xF
        units.append(low < 10 ? 48 + low : 87 + low)
      default: units.append(unit)
      }
    }
    units.append(34)
  }
}
