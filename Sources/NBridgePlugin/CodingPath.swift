/// Formats a coding path the way a script author writes it: `value.a[2]`.
public func formatCodingPath(_ path: [any CodingKey]) -> String {
  var text = ""
  for key in path {
    if let index = key.intValue {
      text += "[\(index)]"
    } else {
      if !text.isEmpty { text += "." }
      text += key.stringValue
    }
  }
  return text.isEmpty ? "options" : text
}

/// A coding key for array positions and dynamic object keys.
struct AnyCodingKey: CodingKey {
  var stringValue: String
  var intValue: Int?
  init(stringValue: String) { self.stringValue = stringValue }
  init(intValue: Int) {
    self.stringValue = String(intValue)
    self.intValue = intValue
  }
}
