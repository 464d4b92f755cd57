import Foundation
import NBridgeTesting

/// An X display with a window manager (Xvfb and openbox, started and stopped by PID) and an app
/// folder of the test's own: `nbridge app` runs there with a `--script`, and the test uses its
/// menus as a user would, with `xdotool`, and reads what they did (`xwininfo`, `xwd`, `xclip`).
final class MenuDesktop: AppDesktop {
  /// The page's background: what the window shows where there is no menu bar.
  static let pageColour = "#3366cc"

  init() throws {
    try super.init(
      prefix: "nbridge-menu",
      manifest: #"{"id": "dev.nbridge.menutest", "name": "Menu Test", "window": {"width": 400, "height": 300}}"#,
      page: """
        <!doctype html><title>Menu Test</title>
        <body style="margin:0;background:\(Self.pageColour);color:#fff;font:16px sans-serif">
        <p id="text">glossary word</p></body>

        """)
  }

  /// A window's id, place on the screen and size (`xwininfo`).
  struct Box: CustomStringConvertible {
    var id = ""
    var x = 0, y = 0, width = 0, height = 0
    var description: String { "\(width)x\(height)+\(x)+\(y)" }
  }

  func box(_ id: String) throws -> Box {
    let text = try tool("xwininfo", ["-id", id])
    func number(_ label: String) -> Int {
      text.split(separator: "\n").first { $0.contains(label) }
        .flatMap { Int($0.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) } ?? -99999
    }
    return Box(
      id: id, x: number("Absolute upper-left X"), y: number("Absolute upper-left Y"), width: number("Width"),
      height: number("Height"))
  }

  /// The menu GTK popped up (an override-redirect window of its own, shown over the app's), once it is shown.
  func poppedUpMenu(besides window: String) throws -> Box? {
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
      let tree = try tool("xwininfo", ["-root", "-children"])
      for line in tree.split(separator: "\n") where line.contains("\"nbridge\"") {
        guard let id = line.split(separator: " ").first.map(String.init), id != window else { continue }
        let info = try tool("xwininfo", ["-id", id])
        if info.contains("Map State: IsViewable") && info.contains("Override Redirect State: yes") {
          return try box(id)
        }
      }
      usleep(50_000)
    }
    return nil
  }

  /// Clicks button `button` at (x, y) on the screen.
  func click(_ x: Int, _ y: Int, button: Int = 1) throws {
    try movePointer(x, y)
    try tool("xdotool", ["click", "\(button)"])
  }

  /// Moves the pointer to (x, y) and returns once it is there. `mousemove --sync` waits for the
  /// pointer to move, which it never does when it is there already (xdotool then gives up after
  /// ~15 s): it is asked only when the pointer is elsewhere.
  func movePointer(_ x: Int, _ y: Int) throws {
    let at = try tool("xdotool", ["getmouselocation", "--shell"]).split(separator: "\n")
    if at.contains("X=\(x)") && at.contains("Y=\(y)") { return }
    try tool("xdotool", ["mousemove", "--sync", "\(x)", "\(y)"])
  }

  /// Presses button `button` at (x, y) on the screen and holds it down.
  func press(_ x: Int, _ y: Int, button: Int) throws {
    try movePointer(x, y)
    try tool("xdotool", ["mousedown", "\(button)"])
  }

  /// Releases button `button` where the pointer is.
  func release(button: Int) throws { try tool("xdotool", ["mouseup", "\(button)"]) }

  /// The colours of a region of window `id` as `xwd` captures it, most common first.
  func colours(of id: String, x: Int, y: Int, width: Int, height: Int) throws -> [String] {
    let png = dir.file("window-\(id).png")
    let capture = try ChildProcess.run(
      "sh", ["-c", "xwd -silent -id \(id) | convert xwd:- \(png)"], environment: ["DISPLAY": display], timeout: 20)
    guard capture.status == 0 else { return [] }
    let histogram = try ChildProcess.run(
      "convert", [png, "-crop", "\(width)x\(height)+\(x)+\(y)", "-format", "%c", "histogram:info:-"], timeout: 20)
    // Lines such as "  9363: (246,245,244) #F6F5F4 srgb(246,245,244)".
    return histogram.stdout.split(separator: "\n").map { line -> (Int, String) in
      let count = Int(line.split(separator: ":").first?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0
      let hex = line.split(separator: " ").first { $0.hasPrefix("#") }.map { String($0.prefix(7)).lowercased() } ?? ""
      return (count, hex)
    }.sorted { $0.0 > $1.0 }.map(\.1)
  }

  /// The region's colours once `check` holds for them (at most 10 s); the last ones seen.
  func waitForColours(
    of id: String, x: Int, y: Int, width: Int, height: Int, _ check: ([String]) -> Bool
  ) throws -> [String] {
    let deadline = Date().addingTimeInterval(10)
    var last = try colours(of: id, x: x, y: y, width: width, height: height)
    while Date() < deadline, !check(last) {
      usleep(100_000)
      last = try colours(of: id, x: x, y: y, width: width, height: height)
    }
    return last
  }
}
