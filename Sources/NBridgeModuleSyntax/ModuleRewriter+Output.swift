// The rewritten text: the function form (a generator the loader drives) and the program form
// (top-level code in a block), with the column shifts the inserted text makes.
extension ModuleRewriter {
  /// The last pass: applies the edits and writes both forms, their heads and the column shifts.
  mutating func emit() {
    var getters: [String] = []
    var liveGetters: [String] = []
    var constants: [String] = []
    let assigned = mentionsEval ? topFunctions : reassigned(topFunctions)
    for export in info.exports {
      guard let local = export.localName else { continue }
      let key = "\"" + local + "\""
      guard !getters.contains(where: { $0.hasPrefix(key + ":") }) else { continue }
      getters.append("\(key):()=>\(local)")
      if topConst.contains(local) || topFunctions.contains(local) && !assigned.contains(local) {
        constants.append(local)
      } else {
        liveGetters.append("\(key):()=>\(local)")
      }
    }
    // The getters are made where the function opens: no second function to compile per module.
    let header =
      (info.hasTopLevelAwait ? "(async function*" : "(function*")
      + "(\(prefix)){\"use strict\";\(prefix).export={\(getters.joined(separator: ","))};yield;"
    // Run as a program, a module is in no cycle: nothing reads its exports before its body has
    // run, so only the bindings that can still change need a getter (each costs a closure and
    // keeps its binding out of a register); the rest are handed over at the end.
    info.programHead =
      "\"use strict\";{const \(prefix)=this;"
      + (liveGetters.isEmpty ? "" : "\(prefix).export={\(liveGetters.joined(separator: ","))};")
    // When the body has run, its exported constants are handed over by value too (`P.const`):
    // an importer that runs after it reads them without calling (and compiling) a getter. A
    // plain literal (the loader reads only its own properties): `__proto__:null` in it cost
    // JavaScriptCore ~8,500 instructions a module to compile and run.
    let footer =
      constants.isEmpty ? "\n})" : "\n;\(prefix).const={\(constants.joined(separator: ","))}})"
    var out: [UInt16] = Array(header.utf16)
    info.headWidth = out.count
    var shifts: [[Int]] = [[1, 0, header.utf16.count]]
    var lineDelta: [Int: Int] = [1: header.utf16.count]
    edits.sort { $0.start < $1.start || ($0.start == $1.start && $0.end < $1.end) }
    var position = 0
    var line = 1
    var lineStart = 0
    func copy(upTo end: Int, blank: Bool) {
      while position < end {
        let c = units[position]
        if Lexer.isLineTerminator(c) {
          out.append(c)
          if !(c == 13 && position + 1 < units.count && units[position + 1] == 10) {
            line += 1
            lineStart = position + 1
          }
        } else {
          out.append(blank ? 32 : c)
        }
        position += 1
      }
    }
    for edit in edits where edit.start >= position {
      copy(upTo: edit.start, blank: false)
      let column = edit.start - lineStart
      guard let text = edit.text else {
        copy(upTo: edit.end, blank: true)
        continue
      }
      let newUnits = Array(text.utf16)
      let width = edit.end - edit.start
      out.append(contentsOf: newUnits)
      if newUnits.count > width {
        let generated = column + lineDelta[line, default: 0]
        shifts.append([line, generated, newUnits.count - width])
        lineDelta[line, default: 0] += newUnits.count - width
      } else {
        out.append(contentsOf: Array(repeating: 32, count: width - newUnits.count))
      }
      position = edit.end
    }
    copy(upTo: units.count, blank: false)
    out.append(contentsOf: footer.utf16)
    info.columnShifts = shifts
    info.script = out
  }
}
