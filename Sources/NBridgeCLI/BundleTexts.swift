import Glibc
import NBridgePlugin

/// The text files of a bundled app besides its desktop entry: the AppStream metadata, the
/// package's documentation and control files, the maintainer scripts.
enum BundleTexts {
  /// `/usr/share/metainfo/<id>.metainfo.xml`: the app for software centres (AppStream).
  static func metainfo(for app: BundleApp, date: String) -> String {
    let developer = app.maintainer.split(separator: "<").first.map { String($0).trimmingSpaces } ?? app.manifest.name
    var xml = """
      <?xml version="1.0" encoding="UTF-8"?>
      <component type="\(app.isPage ? "desktop-application" : "console-application")">
        <id>\(xmlEscaped(app.id))</id>
        <metadata_license>FSFAP</metadata_license>
        <project_license>\(xmlEscaped(app.license))</project_license>
        <name>\(xmlEscaped(app.manifest.name))</name>
        <summary>\(xmlEscaped(app.summary))</summary>
        <description>
          <p>\(xmlEscaped(app.summary)).</p>
          <p>\(xmlEscaped(app.manifest.name)) is an nbridge app.</p>
        </description>
        <developer_name>\(xmlEscaped(developer))</developer_name>

      """
    if app.isPage { xml += "  <launchable type=\"desktop-id\">\(xmlEscaped(app.id)).desktop</launchable>\n" }
    if let homepage = app.manifest.bundle?.homepage {
      xml += "  <url type=\"homepage\">\(xmlEscaped(homepage))</url>\n"
    }
    xml += "  <provides>\n    <binary>\(app.command)</binary>\n"
    for scheme in app.manifest.urlSchemes ?? [] {
      xml += "    <mediatype>x-scheme-handler/\(scheme)</mediatype>\n"
    }
    xml += """
        </provides>
        <content_rating type="oars-1.1" />
        <releases>
          <release version="\(xmlEscaped(app.manifest.version))" date="\(date)" />
        </releases>
      </component>

      """
    return xml
  }

  /// `/usr/share/doc/<command>/copyright`.
  static func copyright(for app: BundleApp) -> String {
    var text = """
      Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
      Upstream-Name: \(app.manifest.name)

      """
    if let homepage = app.manifest.bundle?.homepage { text += "Source: \(homepage)\n" }
    text += """

      Files: *
      Copyright: \(app.maintainer)
      License: \(app.license)
       The license of \(app.manifest.name) (\(app.id)), as its nbridge.json gives it.

      """
    return text
  }

  /// `/usr/share/doc/<command>/changelog` (gzipped in the package): one entry, this version.
  static func changelog(for app: BundleApp, date: String) -> String {
    """
    \(app.command) (\(app.manifest.version)) unstable; urgency=medium

      * \(app.manifest.name) \(app.manifest.version), packaged by nbridge bundle.

     -- \(app.maintainer)  \(date)

    """
  }

  /// The `.deb`'s `DEBIAN/control`.
  static func control(for app: BundleApp, architecture: String, depends: String, installedKiB: Int) -> String {
    var text = """
      Package: \(app.command)
      Version: \(app.manifest.version)
      Architecture: \(architecture)
      Maintainer: \(app.maintainer)
      Installed-Size: \(installedKiB)
      Depends: \(depends)
      Section: \(app.isCLI ? "devel" : app.isPage ? "x11" : "utils")
      Priority: optional

      """
    if let homepage = app.manifest.bundle?.homepage { text += "Homepage: \(homepage)\n" }
    text += "Description: \(app.summary)\n \(about(app))\n"
    return text
  }

  /// The long description's one line.
  static func about(_ app: BundleApp) -> String {
    app.isCLI
      ? "nbridge init, run, test, app and bundle, without a Swift toolchain."
      : "\(app.manifest.name) (\(app.id)) is an nbridge app."
  }

  /// The body of the scripts run after install and after removal: refresh the desktop's URL
  /// handlers and the icon cache where those tools are installed.
  static let refreshCaches = """
    if command -v update-desktop-database >/dev/null 2>&1; then
      update-desktop-database -q /usr/share/applications || true
    fi
    if command -v gtk-update-icon-cache >/dev/null 2>&1 && [ -f /usr/share/icons/hicolor/index.theme ]; then
      gtk-update-icon-cache -q -t -f /usr/share/icons/hicolor || true
    fi

    """

  /// `DEBIAN/postinst` or `DEBIAN/postrm`.
  static func maintainerScript(for app: BundleApp, after: String) -> String {
    "#!/bin/sh\n# Refreshes the desktop's caches after \(after) of \(app.id).\nset -e\n" + refreshCaches + "exit 0\n"
  }

  /// The rpm spec: the staged tree copied as it is, the same scripts.
  static func spec(for app: BundleApp, tree: String, files: [String], requires: [String]) -> String {
    func escaped(_ text: String) -> String { text.replacing("%", with: "%%") }
    var text = """
      Name: \(app.command)
      Version: \(app.manifest.version)
      Release: \(app.manifest.build)
      Summary: \(escaped(app.summary))
      License: \(escaped(app.license))
      Packager: \(escaped(app.maintainer))

      """
    if let homepage = app.manifest.bundle?.homepage { text += "URL: \(escaped(homepage))\n" }
    for requirement in requires { text += "Requires: \(requirement)\n" }
    text += """

      %description
      \(escaped(about(app)))

      %install
      cp -a '\(tree)/usr' %{buildroot}/

      %post
      \(refreshCaches)
      %postun
      \(refreshCaches)
      %files

      """
    for file in files { text += file + "\n" }
    return text
  }

  /// `text` with XML's five special characters escaped.
  static func xmlEscaped(_ text: String) -> String {
    text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
      .replacing("\"", with: "&quot;").replacing("'", with: "&apos;")
  }

  /// `SOURCE_DATE_EPOCH` as `strftime` formats it in UTC.
  static func date(_ epoch: Int, _ format: String) -> String {
    var seconds = time_t(epoch)
    var parts = tm()
    gmtime_r(&seconds, &parts)
    var buffer = [CChar](repeating: 0, count: 64)
    let n = strftime(&buffer, buffer.count, format, &parts)
    return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
