import CPixbuf
import NBridgePlugin
import NBridgeSystem

/// A tray icon's image as StatusNotifierItem carries it: a theme icon's name, or pixels read from a file.
enum TrayIcon: Equatable, Sendable {
  /// An icon of the desktop's theme (`mail-unread`), sent as `IconName`.
  case named(String)
  /// ARGB32 pixels in network byte order, sent as `IconPixmap`.
  case pixmap(width: Int32, height: Int32, argb: [UInt8])

  /// The longest side sent to the desktop: larger images are scaled down to it (panels show 16-64 px).
  static let maxSide: Int32 = 256
  /// The largest image file read.
  static let maxFileBytes = 16 << 20

  /// The icon `value` names: a path (it holds a `/` or ends in an image extension; relative to
  /// `directory`) is read as an image, anything else is a theme icon's name. `invalid_parameter`
  /// naming `field` when it is neither.
  static func parse(_ value: String, field: String, directory: String) throws(BridgeError) -> TrayIcon {
    guard !value.isEmpty else { throw BridgeError.invalidParameter(field, "must be a file path or an icon name") }
    let lower = value.lowercased()
    let isPath =
      value.contains("/") || [".png", ".svg", ".jpg", ".jpeg", ".ico", ".xpm"].contains { lower.hasSuffix($0) }
    guard isPath else {
      guard value.utf8.count <= 255, value.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) else {
        throw BridgeError.invalidParameter(
          field, "is neither an image path nor an icon name (letters, digits, '-', '_', '.'): \"\(value.prefix(80))\"")
      }
      return .named(value)
    }
    let path = value.hasPrefix("/") ? value : directory + "/" + value
    // Refuses what gdk-pixbuf would wait on or read forever (a FIFO, /dev/zero) before it sees the path.
    do {
      _ = try POSIX.readRegularFile(path, limit: maxFileBytes)
    } catch {
      switch error {
      case .notRegular: throw BridgeError.invalidParameter(field, "names \(path), which is not a regular file")
      case .tooLarge(let size):
        throw BridgeError.invalidParameter(
          field, "names \(path), \(size) bytes, more than the \(maxFileBytes) an icon may be")
      case .system(let error): throw BridgeError.invalidParameter(field, "cannot be read: \(error)")
      }
    }
    var image = nbridge_pixbuf_load(path, maxSide)
    defer { nbridge_pixbuf_free(&image) }
    if let error = image.error {
      throw BridgeError.invalidParameter(
        field, "names \(path), which is not an image that can be read (\(String(cString: error)))")
    }
    let count = Int(image.width) * Int(image.height) * 4
    let pixels = Array(UnsafeBufferPointer(start: image.argb, count: count))
    return .pixmap(width: image.width, height: image.height, argb: pixels)
  }
}
