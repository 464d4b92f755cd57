import Foundation

/// What a script printed, read back.
package enum ScriptOutput {
  /// The last line of `text` that holds a JSON object (a `--script`'s result), parsed; empty when none.
  package static func json(_ text: String) -> [String: Any] {
    let line = text.split(separator: "\n").last { $0.hasPrefix("{") }.map(String.init) ?? "{}"
    return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
  }
}
