import NBridgeSystem

/// `$XDG_CONFIG_HOME/mimeapps.list`, edited line by line: only the keys nbridge sets change;
/// comments, other groups and other handlers stay as they were.
struct MimeAppsList {
  static let defaults = "Default Applications"
  static let added = "Added Associations"

  /// The file's lines.
  var lines: [String]

  /// The user's file (empty when missing).
  static func read() -> MimeAppsList {
    let text = POSIX.readText(XDGPaths.mimeAppsList) ?? ""
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    return MimeAppsList(lines: lines)
  }

  /// Writes it back atomically (creating the folder); a list left with nothing but blank lines
  /// removes the file.
  func write() throws(SystemError) {
    var files = StagedFiles()
    stage(in: &files)
    try files.commit()
  }

  /// Stages writing it back into `files`, or removing the file when it holds nothing but blank lines.
  func stage(in files: inout StagedFiles) {
    if lines.allSatisfy({ $0.trimmed.isEmpty }) {
      files.remove(XDGPaths.mimeAppsList)
    } else {
      files.write(XDGPaths.mimeAppsList, Array((lines.joined(separator: "\n") + "\n").utf8))
    }
  }

  /// The group header `[name]`'s index, or nil.
  private func group(_ name: String) -> Int? { lines.firstIndex { $0.trimmed == "[\(name)]" } }

  /// The range of lines after the header up to the next group.
  private func body(of header: Int) -> Range<Int> {
    var end = header + 1
    while end < lines.count, !lines[end].trimmed.hasPrefix("[") { end += 1 }
    return (header + 1)..<end
  }

  private func key(of line: String) -> String? {
    guard let equals = line.firstIndex(of: "="), !line.trimmed.hasPrefix("#") else { return nil }
    return line[..<equals].trimmed
  }

  /// The first desktop id set for `type` in `[Default Applications]`.
  func defaultHandler(for type: String) -> String? {
    guard let header = group(Self.defaults) else { return nil }
    for i in body(of: header) where key(of: lines[i]) == type {
      let value = lines[i][lines[i].index(after: lines[i].firstIndex(of: "=")!)...]
      return value.split(separator: ";").first.map { String($0).trimmed }
    }
    return nil
  }

  /// Sets `type=value` in `group`, replacing the key's line or appending one (and the group).
  mutating func set(_ type: String, to value: String, in name: String) {
    let header: Int
    if let existing = group(name) {
      header = existing
    } else {
      if let last = lines.last, !last.trimmed.isEmpty { lines.append("") }
      lines.append("[\(name)]")
      header = lines.count - 1
    }
    let range = body(of: header)
    if let i = range.first(where: { key(of: lines[$0]) == type }) {
      lines[i] = "\(type)=\(value)"
    } else {
      var insertAt = range.upperBound
      while insertAt > range.lowerBound, lines[insertAt - 1].trimmed.isEmpty { insertAt -= 1 }
      lines.insert("\(type)=\(value)", at: insertAt)
    }
  }

  /// Removes `type`'s line from `[Default Applications]` when it names `desktopID`.
  mutating func removeDefault(_ type: String, ifItIs desktopID: String) {
    guard let header = group(Self.defaults), defaultHandler(for: type) == desktopID else { return }
    if let i = body(of: header).first(where: { key(of: lines[$0]) == type }) { lines.remove(at: i) }
  }

  /// Removes every line whose value names `desktopID` (in any group); the other ids on a line
  /// stay. A group this leaves with nothing but blank lines goes too (with the blank lines before
  /// it when it ends the file), so an install then an uninstall gives the file back as it was.
  mutating func remove(desktopID: String) {
    var result: [String] = []
    var emptied: Set<Int> = []
    var header: Int?
    for line in lines {
      if line.trimmed.hasPrefix("[") { header = result.count }
      guard let k = key(of: line) else {
        result.append(line)
        continue
      }
      let values = line[line.index(after: line.firstIndex(of: "=")!)...].split(separator: ";").map { String($0).trimmed }
      let kept = values.filter { $0 != desktopID && !$0.isEmpty }
      if kept.count == values.filter({ !$0.isEmpty }).count {
        result.append(line)
        continue
      }
      if let header { emptied.insert(header) }
      if !kept.isEmpty { result.append("\(k)=\(kept.joined(separator: ";"));") }
    }
    lines = result
    for header in emptied.sorted(by: >) {
      let range = body(of: header)
      guard range.allSatisfy({ lines[$0].trimmed.isEmpty }) else { continue }
      var start = header
      if range.upperBound == lines.count {
        while start > 0, lines[start - 1].trimmed.isEmpty { start -= 1 }
      }
      lines.removeSubrange(start..<range.upperBound)
    }
  }
}

extension StringProtocol {
  /// Without leading and trailing spaces and tabs.
  var trimmed: String {
    var s = Substring(self)
    while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
    while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
    return String(s)
  }
}
