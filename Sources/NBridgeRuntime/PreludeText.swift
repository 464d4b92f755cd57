import CJavaScriptCore
import Synchronization

/// The headless prelude's compacted text, made once a process for each set of extension files
/// and kept for the process's life, so JavaScriptCore can read it where it lies: an ASCII
/// script given as a `JSStringRef` is first widened to UTF-16 and copied (about 0.24 M
/// instructions for the prelude's 12 KB at every start), an immortal one is not.
package enum PreludeText {
  /// A text made, with the extension files it was made from. Sendable: the text is written
  /// once, before it is shared, and never freed.
  struct Made: @unchecked Sendable {
    let scripts: [[UInt8]]
    let text: UnsafeBufferPointer<UInt8>
  }

  /// The texts made so far.
  private static let made = Mutex<[Made]>([])

  /// The prelude with the extensions' global files `scripts` (`PreludeSource.headlessBytes`).
  package static func headless(scripts: [[UInt8]]) -> UnsafeBufferPointer<UInt8> {
    made.withLock { made in
      // The files are the extensions' static arrays: the same buffers each time, compared at once.
      if let known = made.first(where: { $0.scripts == scripts }) { return known.text }
      let bytes = PreludeSource.headlessBytes(scripts: scripts)
      let text = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
      _ = text.initialize(from: bytes)
      made.append(Made(scripts: scripts, text: UnsafeBufferPointer(text)))
      return UnsafeBufferPointer(text)
    }
  }
}

extension JSContext {
  /// Evaluates `text` (kept for the process's life) as a script named `url`: without a copy
  /// when it is ASCII, else as a string.
  func evaluate(immortal text: UnsafeBufferPointer<UInt8>, url: String) throws(JSException) -> JSValueRef {
    let name = url.makeJSString()
    defer { JSStringRelease(name) }
    let script = text.withMemoryRebound(to: CChar.self) {
      JSScriptCreateReferencingImmortalASCIIText(group, name, 1, $0.baseAddress, $0.count, nil, nil)
    }
    // Text beyond ASCII, or a syntax error (the string's evaluation reports it).
    guard let script else { return try evaluate(String(decoding: text, as: UTF8.self), url: url) }
    defer { JSScriptRelease(script) }
    var exception: JSValueRef?
    let result = JSScriptEvaluate(ref, script, nil, &exception)
    if let exception { throw JSException(value: exception) }
    return result ?? JSValueMakeUndefined(ref)
  }
}
