import CWebKitGTK
import Glibc
import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem

/// `nbridge app`: runs an app's page in a WebKitGTK window with the runtime's plugins.
package enum WindowApp {
  /// Shows `options.page` until the window closes or the app exits; returns the exit status.
  /// Without a display it prints one line and returns 2 at once.
  package static func run(_ configuration: RuntimeConfiguration, options: WindowOptions) -> Int32 {
    if let status = startGTK() { return status }
    return show(configuration, options: options)
  }

  /// Loads WebKitGTK and opens the display for `command`; nil when done, else the exit status
  /// (a line on stderr said why).
  package static func startGTK(command: String = "nbridge app") -> Int32? {
    let display = ProcessEnvironment.value("DISPLAY") ?? ProcessEnvironment.value("WAYLAND_DISPLAY")
    guard display != nil else { return noDisplay("DISPLAY and WAYLAND_DISPLAY are not set", command: command) }
    var error: UnsafePointer<CChar>?
    guard nbw_load(&error) == 0 else {
      writeLine(2, "\(command): cannot load WebKitGTK (\(error.map { String(cString: $0) } ?? "?")); install libwebkit2gtk-4.1-0")
      return ExitStatus.usage
    }
    // Without a session bus GLib would start one (and the accessibility bus) that outlive the app,
    // and GTK's file chooser would warn on stderr at every setting it saves through dconf (which
    // needs the bus): its settings stay in memory instead.
    if ProcessEnvironment.value("DBUS_SESSION_BUS_ADDRESS") == nil {
      setenv("DBUS_SESSION_BUS_ADDRESS", "disabled:", 1)
      setenv("GSETTINGS_BACKEND", "memory", 0)
    }
    setenv("NO_AT_BRIDGE", "1", 0)
    guard nbw_gtk_init() != 0 else { return noDisplay("cannot open the display \(display ?? "")", command: command) }
    return nil
  }

  /// Runs `options.page` in the window; WebKitGTK and GTK are started.
  private static func show(_ configuration: RuntimeConfiguration, options: WindowOptions) -> Int32 {
    guard let folder = PageFolder(String(options.page[..<(options.page.lastIndex(of: "/") ?? options.page.startIndex)]))
    else {
      writeLine(2, "nbridge app: cannot open the folder of \(options.page)")
      return ExitStatus.usage
    }
    let entryPath = "/" + String(options.page[options.page.index(after: options.page.lastIndex(of: "/")!)...])
    let host = configuration.manifest.id.lowercased()
    let status = Runtime.runPage(configuration, entry: options.page) { runtime in
      let window = AppWindow(runtime: runtime, options: options, folder: folder, host: host, entryPath: entryPath)
      window.allowsLocation = configuration.allows(permission: AppWindow.locationPermission)
      window.open(dataDirectory: configuration.dataDirectory)
      windows.append(window)
      return nil
    }
    HelperProcesses.stop()
    return status
  }

  /// The windows of this process, kept for its life (their C callbacks hold unretained pointers).
  @BridgeActor static var windows: [AppWindow] = []

  static func noDisplay(_ why: String, command: String) -> Int32 {
    writeLine(2, "\(command): needs a display (\(why)); 'nbridge run FILE' runs the app's JavaScript headless")
    return ExitStatus.usage
  }

  static func writeLine(_ fd: Int32, _ text: String) {
    var line = text + "\n"
    line.withUTF8 { _ = write(fd, $0.baseAddress, $0.count) }
  }
}
