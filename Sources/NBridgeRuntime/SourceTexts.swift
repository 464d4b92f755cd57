/// Source texts by URL, for error reports: the first one set (the entry's) in a field of its own,
/// the others in a dictionary. A run that loads no other script never inserts into a dictionary
/// keyed by `String`: the first such insert at a start costs about 0.26 M instructions
/// (callgrind), the Swift runtime's scan of every conformance record for `String: Hashable`
/// when it builds the dictionary's storage type from its mangled name.
struct SourceTexts {
  private var first: (url: String, text: String)?
  private var others: [String: String] = [:]

  /// The text of `url`; nil when none was kept.
  subscript(url: String) -> String? {
    get { first?.url == url ? first?.text : others[url] }
    set {
      if first?.url == url || (first == nil && others.isEmpty) {
        first = newValue.map { (url, $0) }
      } else {
        others[url] = newValue
      }
    }
  }
}
