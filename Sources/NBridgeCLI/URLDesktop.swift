import Glibc
import NBridgeRuntime
import NBridgeSystem

/// What the desktop says about a URL scheme, through xdg-utils.
enum URLDesktop {
  /// The desktop file `xdg-mime query default x-scheme-handler/<scheme>` names, or nil (no
  /// handler, or no xdg-mime).
  static func defaultHandler(scheme: String) -> String? {
    let environment = ProcessEnvironment.current
    guard Spawn.locate("xdg-mime", path: environment["PATH"] ?? "/usr/bin:/bin") != nil else { return nil }
    var template = Array("/tmp/nbridge-xdg-mime-XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else { return nil }
    close(fd)
    let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    defer { unlink(path) }
    let status = Spawn.run(
      ["xdg-mime", "query", "default", "x-scheme-handler/" + scheme], environment: environment, output: .append(path))
    guard status == 0, let text = POSIX.readText(path) else { return nil }
    let handler = text.split(separator: "\n").first.map { $0.trimmed } ?? ""
    return handler.isEmpty ? nil : handler
  }
}
