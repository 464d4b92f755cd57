/// An app's id and name, made from its folder's name: `~/src/My Notes` is `com.example.my-notes`, "My Notes".
struct AppNames {
  var id: String
  var name: String

  init(folder: String) {
    name = String(folder.split(separator: "/").last ?? "app")
    var slug = ""
    for character in name.lowercased() {
      if character.isASCII && (character.isLetter || character.isNumber) {
        slug.append(character)
      } else if !slug.isEmpty && slug.last != "-" {
        slug.append("-")
      }
    }
    while slug.last == "-" { slug.removeLast() }
    id = "com.example." + (slug.isEmpty ? "app" : slug)
  }
}

/// A plugin's names, from `--plugin Greeter`: type `GreeterPlugin`, service `greeter`, executable `greeter`.
struct PluginNames {
  /// `Greeter`.
  var type: String
  /// `GreeterPlugin`: the plugin's class and its target.
  var target: String { type + "Plugin" }
  /// `greeter`: `nbridge.greeter` (lower camel case).
  var service: String
  /// `greeter`: the package's executable, its CLI.
  var executable: String

  /// Nil unless `name` is ASCII letters and digits starting with a letter.
  init?(_ name: String) {
    guard let first = name.first, first.isASCII, first.isLetter,
      name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
    else { return nil }
    type = first.uppercased() + name.dropFirst()
    service = first.lowercased() + name.dropFirst()
    executable = name.lowercased()
  }
}
