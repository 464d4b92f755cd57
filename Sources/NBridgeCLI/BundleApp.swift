import Glibc
import NBridgeAppSetup
import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem

/// What a bad bundle input or a missing tool says: one line; the CLI exits 2.
struct BundleProblem: Error, CustomStringConvertible {
  /// The line.
  var description: String
  init(_ description: String) { self.description = description }
}

/// An app as `nbridge bundle` packages it: its manifest's fields checked for what dpkg, rpm,
/// the desktop and AppStream accept.
struct BundleApp {
  /// The app's folder, absolute.
  var folder: String
  /// The manifest.
  var manifest: AppManifest
  /// Whether the app is a page (`index.html`), else a script (`index.js`).
  var isPage: Bool
  /// The installed command and the package's name.
  var command: String
  /// The one-line description.
  var summary: String
  /// The icon, when the manifest names one.
  var icon: BundleIcon?
  /// Menu categories.
  var categories: [String]
  /// SPDX license expression.
  var license: String
  /// `Name <email>`.
  var maintainer: String
  /// Whether this is nbridge itself (`--self`): the executable as `/usr/bin/nbridge`, no app.
  var isCLI = false

  /// nbridge itself as a package: every library the runtime may open is a dependency.
  init(cliVersion version: String) {
    folder = ""
    manifest = AppManifest(id: "dev.nbridge.cli", name: "nbridge", version: version)
    isPage = true
    command = "nbridge"
    summary = "Hybrid JS-bridge runtime for Linux: run, test and bundle apps"
    categories = []
    license = "LicenseRef-proprietary"
    maintainer = "nbridge <maintainer@cli.nbridge.dev.invalid>"
    isCLI = true
  }

  /// The app's id.
  var id: String { manifest.id }

  /// Loads and checks the app in `path` (a folder with `nbridge.json`).
  init(folder path: String) throws(BundleProblem) {
    folder = absolutePath(path)
    while folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
    let manifestPath = folder + "/nbridge.json"
    guard let text = POSIX.readText(manifestPath) else {
      throw BundleProblem("\(path): no nbridge.json (nbridge bundle packages an app folder with a manifest)")
    }
    do { manifest = try AppSetup.parseManifest(text, path: manifestPath) } catch {
      throw BundleProblem(error.description)
    }
    guard case .object(let given) = (try? JSONValue(parsing: text)) ?? .null else {
      throw BundleProblem("\(manifestPath): must be a JSON object")
    }
    for field in ["name", "version", "description"] where given[field] == nil {
      throw BundleProblem("\(manifestPath): field \"\(field)\" is required to bundle the app")
    }
    if fileIsReadable(folder + "/index.html") {
      isPage = true
    } else if fileIsReadable(folder + "/index.js") {
      isPage = false
    } else {
      throw BundleProblem("\(path) holds neither index.html nor index.js")
    }
    guard Self.isPackageVersion(manifest.version) else {
      throw BundleProblem(
        "\(manifestPath): field \"version\" must start with a digit and hold only letters, digits, '.', '+' and '~' (dpkg and rpm accept it), got \"\(manifest.version)\""
      )
    }
    guard Self.isPackageVersion("0" + manifest.build) else {
      throw BundleProblem(
        "\(manifestPath): field \"build\" must hold only letters, digits, '.', '+' and '~' (the rpm release), got \"\(manifest.build)\""
      )
    }
    let bundle = manifest.bundle ?? BundleSettings()
    let fallback = String(manifest.id.split(separator: ".").last ?? "").lowercased().replacing("_", with: "-")
    command = bundle.command ?? fallback
    guard AppSetup.isCommandName(command) else {
      throw BundleProblem(
        "\(manifestPath): field \"bundle.command\" is required: the id's last part \"\(fallback)\" is no command name (a-z, 0-9, '+', '-', '.')"
      )
    }
    guard manifest.id.utf8.count <= 200, manifest.id.contains(".") else {
      throw BundleProblem(
        "\(manifestPath): field \"id\" must be reverse-DNS with at least one '.', such as \"com.example.app\", to bundle the app"
      )
    }
    summary = manifest.description ?? manifest.name
    categories = bundle.categories ?? ["Utility"]
    license = bundle.license ?? "LicenseRef-proprietary"
    maintainer =
      bundle.maintainer
      ?? "\(manifest.name) <maintainer@\(manifest.id.split(separator: ".").reversed().joined(separator: ".")).invalid>"
    if let icon = bundle.icon {
      self.icon = try BundleIcon(path: folder + "/" + icon, field: "\(manifestPath): field \"bundle.icon\"")
    }
  }

  /// The script a background fetch wakes (`index.js`, for a page app the one beside it) when the
  /// app may use the background plugin (its permissions name `background`, or it lists none): the
  /// package ships the systemd user service that runs it. Nil otherwise.
  var fetchEntry: String? {
    guard !isCLI, manifest.permissions?.contains("background") ?? true, fileIsReadable(folder + "/index.js") else {
      return nil
    }
    return "index.js"
  }

  /// Whether dpkg and rpm both take `version`: a digit first, then letters, digits, `.`, `+`, `~`.
  static func isPackageVersion(_ version: String) -> Bool {
    guard let first = version.utf8.first, (0x30...0x39).contains(first), version.utf8.count <= 100 else { return false }
    return version.utf8.allSatisfy {
      (0x30...0x39).contains($0) || (0x41...0x5a).contains($0) || (0x61...0x7a).contains($0) || $0 == UInt8(ascii: ".")
        || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "~")
    }
  }
}

/// The app's icon: a square PNG of one of the icon theme's sizes, or an SVG.
struct BundleIcon {
  /// The file.
  var path: String
  /// The PNG's width and height; nil for an SVG.
  var size: Int?

  /// The sizes the hicolor theme has folders for.
  static let sizes = [16, 22, 24, 32, 48, 64, 96, 128, 192, 256, 512]

  /// Reads and checks the icon at `path`; `field` begins the error line.
  init(path: String, field: String) throws(BundleProblem) {
    self.path = path
    guard let bytes = try? POSIX.readFile(path, limit: 8 << 20) else {
      throw BundleProblem("\(field): cannot read \(path)")
    }
    if path.lowercased().hasSuffix(".png") {
      guard bytes.count > 24, bytes[0..<8] == [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
        bytes[12..<16] == [0x49, 0x48, 0x44, 0x52]
      else {
        throw BundleProblem("\(field): \(path) is not a PNG image")
      }
      let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
      let height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
      guard width == height, Self.sizes.contains(width) else {
        throw BundleProblem(
          "\(field): \(path) is \(width)x\(height); a PNG icon must be square, one of \(Self.sizes.map(String.init).joined(separator: ", ")) pixels (or give an SVG)"
        )
      }
      size = width
    } else {
      let head = String(decoding: bytes.prefix(4096), as: UTF8.self)
      guard head.contains("<svg"), !bytes.contains(0) else {
        throw BundleProblem("\(field): \(path) is not an SVG image")
      }
      size = nil
    }
  }
}
