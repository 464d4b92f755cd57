import CWebKitGTK
import Glibc
import NBridgeModuleSyntax
import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem
import NBridgeTestRunner

/// One test file run inside the app's window (`nbridge test --page`). The file is imported as a
/// module into a document of the app's origin (a blank page, or the app's own page a test names
/// with `{ page: 'index.html' }`), under `/.nbridge-test/files/` where the project's files are
/// served (`.ts` with its types stripped), so its imports resolve as the page's own do. The test
/// framework (`test-prelude.js`, the headless one) runs there and reports through the
/// `nbridgeTest` message handler; a test of another page makes the window load that page and
/// import the file again, going on from that test.
@BridgeActor
final class PageTestSession {
  /// The path under the app's origin that the session serves.
  static let prefix = "/.nbridge-test/"

  let file: String
  /// The folder the test's files are served from: the working folder when the file lies under
  /// it (as a headless run reads the project's files), else the file's own folder.
  let files: PageFolder
  /// The file's path inside `files`.
  let relativePath: String
  let firstNumber: Int
  let timeoutMs: Double
  /// Called once with (passed, failed) when the file's tests are done.
  let done: @BridgeActor (Int, Int) -> Void
  unowned(unsafe) var window: AppWindow!

  var passed = 0
  var failed = 0
  /// The index of the first test of the current document, and the lines it printed so far.
  var start = 0
  var reported = 0
  /// The current document's place: the app's page file, or `true` for the blank page; why it
  /// could not be loaded.
  var place: JSONValue = true
  var placeError: String?
  /// Whether a load the session asked for is under way (another one is the test navigating away).
  var expectingLoad = true
  var finished = false
  /// The test framework's time limits: its id → the runtime's timer.
  var timers: [Int: Int] = [:]
  /// Armed when the framework is put in a document, until its first message: a file that does
  /// not load (or a framework that does not start) fails instead of waiting forever.
  var watchdog: Int?

  init(
    file: String, files: PageFolder, relativePath: String, firstNumber: Int, timeoutMs: Double,
    done: @escaping @BridgeActor (Int, Int) -> Void
  ) {
    self.file = file
    self.files = files
    self.relativePath = relativePath
    self.firstNumber = firstNumber
    self.timeoutMs = timeoutMs
    self.done = done
  }

  var blankURL: String { window.origin + Self.prefix + "blank.html" }
  var filesURL: String { window.origin + Self.prefix + "files/" }
  var fileURL: String { filesURL + URLPath.encoded(relativePath) }

  // MARK: Serving

  /// Answers a request under `prefix`: the blank page, or a file of the project.
  func serve(_ request: UnsafeMutableRawPointer?, path: String) {
    let rest = path.dropFirst(Self.prefix.count)
    if rest == "blank.html" {
      let body = Array(blankPage.utf8)
      return nbw_scheme_respond(request, 200, "text/html; charset=utf-8", body, body.count)
    }
    guard rest.hasPrefix("files/"), let found = files.file(forRequestPath: "/" + rest.dropFirst("files/".count)),
      var bytes = PageFolder.contents(of: found)
    else {
      let body = Array("Not found: \(path)\n".utf8)
      return nbw_scheme_respond(request, 404, "text/plain; charset=utf-8", body, body.count)
    }
    var type = PageFolder.mimeType(of: found)
    if TypeStripper.isTypeScript(found) {
      // Types become spaces: an error's line and column are the .ts file's own.
      let source = String(decoding: bytes, as: UTF8.self)
      let stripped = (try? TypeStripper.strip(source)) ?? source
      bytes = Array(stripped.utf8)
      type = "text/javascript; charset=utf-8"
    } else if found.hasSuffix(".cjs") {
      type = "text/javascript; charset=utf-8"
    }
    nbw_scheme_respond(request, 200, type, bytes, bytes.count)
  }

  /// The manifest's import map (`imports`, `scopes`), when the test file's manifest has one.
  var importMap: JSONValue?

  /// The blank page: its base is the test file's folder (a relative `fetch` or import map
  /// address reads from there, as headless), with the manifest's import map.
  var blankPage: String {
    let folder = relativePath.contains("/") ? String(relativePath[..<relativePath.lastIndex(of: "/")!]) + "/" : ""
    let base = JSONValue.string(filesURL + URLPath.encoded(folder)).jsonText
    let map = importMap.map { "<script type=\"importmap\">" + $0.jsonText.replacing("</", with: "<\\/") + "</script>" } ?? ""
    return "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><base href=\(base)>"
      + "<title>nbridge test</title>\(map)</head><body></body></html>\n"
  }

  // MARK: The documents

  /// A document finished loading: the one asked for gets the test framework and the file; any
  /// other means a test navigated away from its document.
  func loaded() {
    guard !finished else { return }
    guard expectingLoad else {
      return fail("the page navigated away from the test's document")
    }
    expectingLoad = false
    reported = 0
    let limit = timeoutMs + 5000
    watchdog = window.runtime.addTimer(after: .milliseconds(Int64(limit)), repeating: nil) { [weak self] in
      self?.watchdog = nil
      self?.fail("the file did not load in a visible page within \(Int(limit)) ms")
    }
    window.evaluateInPage(driverScript())
  }

  /// Loads the document for `place` (the app's page file, or the blank page).
  func load(_ place: JSONValue) {
    cancelTimers()
    self.place = place
    placeError = nil
    expectingLoad = true
    guard case .string(let page) = place else { return nbw_view_load(window.view, blankURL) }
    let path = "/" + String(page.prefix { $0 != "?" && $0 != "#" })
    guard !path.hasPrefix(Self.prefix), window.folder.file(forRequestPath: path) != nil else {
      placeError = "page: \(JSONValue.string(page).jsonText) is not a file of the app's folder \(window.folder.root)"
      return nbw_view_load(window.view, blankURL)
    }
    nbw_view_load(window.view, window.origin + (page.hasPrefix("/") ? "" : "/") + page)
  }

  /// The web process ended while the file ran.
  func crashed() {
    guard !finished else { return }
    fail("the web process ended while the tests ran")
  }

  /// Reports a failure of the file itself and ends it.
  func fail(_ why: String) {
    let name = file.split(separator: "/").last.map(String.init) ?? file
    print("not ok \(firstNumber + start + reported) - \(name): \(why)\n")
    failed += 1
    finish()
  }

  func finish() {
    guard !finished else { return }
    finished = true
    cancelTimers()
    done(passed, failed)
  }

  // MARK: Messages from the driver

  func message(_ text: String) {
    // The page's script adds the app's token to every message its frame posts (`page.js`).
    guard !finished, text.hasPrefix(window.token) else { return }
    if let watchdog { window.runtime.cancelTimer(watchdog) }
    watchdog = nil
    let body = text.dropFirst(window.token.count)
    guard let kind = body.first else { return }
    let rest = body.dropFirst()
    let newline = rest.firstIndex(of: "\n") ?? rest.endIndex
    let head = rest[..<newline].split(separator: " ").compactMap { Double($0) }
    switch kind {
    case "p":
      // The counts are the lines: a file that fails midway keeps what it reported.
      if rest.hasPrefix("ok ") {
        passed += 1
        reported += 1
      } else if rest.hasPrefix("not ok ") {
        failed += 1
        reported += 1
      }
      print(String(rest))
    case "d":
      finish()
    case "n" where head.count >= 1 && newline < rest.endIndex:
      start = Int(head[0])
      load((try? JSONValue(parsing: String(rest[rest.index(after: newline)...]))) ?? true)
    case "t" where head.count == 2:
      let id = Int(head[0])
      let delay = Duration.milliseconds(Int64(max(0, min(head[1], 1e9))))
      timers[id] = window.runtime.addTimer(after: delay, repeating: nil) { [weak self] in
        guard let self, self.timers.removeValue(forKey: id) != nil else { return }
        self.window.evaluateInPage("__nbridgeTestTimer(\(id))")
        // A page busy in a loop cannot report the timeout: its file fails from here.
        self.watchdog = self.window.runtime.addTimer(after: .seconds(2), repeating: nil) { [weak self] in
          self?.watchdog = nil
          self?.fail("a test kept the page busy past its \(Int(self?.timeoutMs ?? 0)) ms (--test-timeout)")
        }
      }
    case "c" where head.count == 1:
      if let timer = timers.removeValue(forKey: Int(head[0])) { window.runtime.cancelTimer(timer) }
    default:
      break
    }
  }

  func cancelTimers() {
    for timer in timers.values { window.runtime.cancelTimer(timer) }
    timers.removeAll()
    if let watchdog { window.runtime.cancelTimer(watchdog) }
    watchdog = nil
  }

  /// Writes the framework's text to stdout, the files' URLs shown as the paths they are served from.
  func print(_ text: String) {
    window.runtime.report(1, String(text.replacing(filesURL, with: files.root + "/").dropLast()))
  }

  /// The script the window evaluates in the document: the test framework over the
  /// `nbridgeTest` handler, then the file's import and its tests from `start` on.
  func driverScript() -> String {
    let values: [(String, JSONValue)] = [
      ("PLACE_ERROR", placeError.map { .string($0) } ?? .null), ("PLACE", place),
      ("FIRST", .number(Double(firstNumber + start))), ("TIMEOUT", .number(timeoutMs)), ("FILE", .string(fileURL)),
      ("START", .number(Double(start))),
    ]
    var script = Self.driver
    for (name, value) in values { script = script.replacing("$" + name, with: value.jsonText) }
    return script.replacing("$PRELUDE", with: testPreludeSource)
  }

  static let driver = """
    (function () {
      'use strict';
      const post = (m) => window.webkit.messageHandlers.nbridgeTest.postMessage(m);
      const timers = new Map();
      let nextTimer = 1;
      Object.defineProperty(window, '__nbridgeTestTimer', {
        configurable: true,
        value: (id) => {
          const fn = timers.get(id);
          timers.delete(id);
          if (fn) fn();
        },
      });
      const native = {
        print: (fd, text) => post('p' + text),
        testDone: () => post('d'),
        testTimer(ms, fn) {
          const id = nextTimer++;
          timers.set(id, fn);
          post('t' + id + ' ' + ms);
          return id;
        },
        clearTestTimer(id) {
          if (timers.delete(id)) post('c' + id);
        },
        simulate() {
          return Promise.reject(new Error('simulate() drives the lifecycle of headless runs only'));
        },
      };
      const run = ($PRELUDE)(window, native, window.__nbridgeTestHooks);
      const where = {
        page: $PLACE,
        pageError: $PLACE_ERROR,
        moveTo: (index, page) => post('n' + index + '\\n' + JSON.stringify(page)),
      };
      // The tests start once the page is visible: a window WebKit has not seen mapped yet (a
      // loaded machine) has a hidden page, whose timers it aligns to whole seconds and fires in
      // the order they were set, not by deadline. The watchdog bounds the wait.
      const begin = () => run($FIRST, $TIMEOUT, $FILE, undefined, import($FILE), $START, where);
      if (document.visibilityState === 'visible') return begin();
      document.addEventListener('visibilitychange', function shown() {
        if (document.visibilityState !== 'visible') return;
        document.removeEventListener('visibilitychange', shown);
        begin();
      });
    })();
    """
}

/// Percent-encoding of a path for a URL: what is not unreserved or `/` becomes `%XX`.
enum URLPath {
  static func encoded(_ path: String) -> String {
    var out = ""
    for byte in path.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
        UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
        out.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        let hex = Array("0123456789ABCDEF".utf8)
        out += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 15)]], as: UTF8.self)
      }
    }
    return out
  }
}
