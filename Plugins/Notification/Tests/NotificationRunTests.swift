import Foundation
import NBridgeTesting
import Testing

/// An app folder with a manifest and one script, plus its own data and shared dirs.
struct NotificationApp {
  let folder: TemporaryDirectory
  let script: String

  init(_ source: String, permissions: String = #"["app", "notification"]"#) throws {
    folder = try TemporaryDirectory(prefix: "nbridge-notification")
    try folder.write(
      "app/nbridge.json",
      #"{"id": "org.example.notes", "name": "Notes", "version": "1.0", "build": "1", "permissions": \#(permissions)}"#)
    script = try folder.write("app/index.js", source)
    try FileManager.default.createDirectory(atPath: folder.file("data"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: folder.file("shared"), withIntermediateDirectories: true)
  }

  /// The data dir the runs share, so a second run sees what the first left.
  var dataDirectory: String { folder.file("data") }

  func environment(_ extra: [String: String?] = NBridgeTest.headless) -> [String: String?] {
    extra.merging(["NBRIDGE_DATA_DIR": folder.file("data"), "NBRIDGE_SHARED_DIR": folder.file("shared")]) { $1 }
  }

  func run(_ extra: [String: String?] = NBridgeTest.headless) throws -> (
    status: Int32, stdout: String, stderr: String
  ) {
    try NBridgeTest.command(["run", script], environment: environment(extra), timeout: 30)
  }

  func start(_ extra: [String: String?]) throws -> ChildProcess {
    try NBridgeTest.start(["run", script], environment: environment(extra))
  }
}

/// `nbridge run` with the notification plugin: headless delivery and schedules that outlive a run.
@Suite(.serialized)
struct NotificationRunTests {
  @Test func headlessDeliveryIsOneLineOnStderr() throws {
    let app = try NotificationApp(
      """
      nbridge.notification.show({title: 'Copied', body: "'Retina'\\nmeans a screen"})
        .then(({id}) => console.log('shown ' + id));
      """)
    let result = try app.run()
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("shown "))
    #expect(result.stderr.contains("notification [Notes] Copied: 'Retina' means a screen\n"))
  }

  @Test func aScheduleThatFellDueWhileNotRunningIsDeliveredOnceAtTheNextRun() throws {
    // Due 2 s after it is made: the first run reads it back as pending and exits well before
    // then, even on a loaded machine (300 ms fell due between the two calls at load ~20).
    let first = try NotificationApp(
      """
      (async () => {
        await nbridge.notification.schedule({title: 'Stand up', body: 'stretch', id: 'stretch', after: 2000});
        const pending = await nbridge.notification.getPending();
        console.log('pending ' + pending.map(r => r.id).join(','));
        console.log('due ' + Date.parse(pending[0].at));
        nbridge.app.exit({code: 0});
      })();
      """)
    let firstRun = try first.run()
    #expect(firstRun.status == 0, "\(firstRun.stderr)")
    let lines = firstRun.stdout.split(separator: "\n")
    #expect(lines.first == "pending stretch")
    #expect(!firstRun.stderr.contains("Stand up"), "not delivered by the first run")
    // The next run must start after the schedule fell due: wait until the wall clock passes
    // the due time the first run saved (a time, not an event, so waiting for it is the point).
    let due = try #require(lines.last.flatMap { $0.hasPrefix("due ") ? Double($0.dropFirst(4)) : nil })
    while Date().timeIntervalSince1970 * 1000 <= due { usleep(10_000) }

    try first.folder.write(
      "app/index.js",
      """
      nbridge.notification.addListener('received', (r) => console.log('received ' + r.id));
      setTimeout(async () => {
        const pending = await nbridge.notification.getPending();
        const delivered = await nbridge.notification.getDelivered();
        console.log('pending ' + pending.length + ' delivered ' + delivered.map(r => r.id).join(','));
      }, 200);
      """)
    let secondRun = try first.run()
    #expect(secondRun.status == 0, "\(secondRun.stderr)")
    #expect(secondRun.stdout == "received stretch\npending 0 delivered stretch\n")
    #expect(secondRun.stderr.components(separatedBy: "notification [Notes] Stand up: stretch").count == 2)

    let thirdRun = try first.run()
    #expect(thirdRun.stdout == "pending 0 delivered stretch\n", "delivered once, not again")
  }

  @Test func withoutThePermissionCallsAreDeniedButThePermissionActionsAnswer() throws {
    let app = try NotificationApp(
      """
      (async () => {
        console.log(await nbridge.notification.checkPermission(), await nbridge.notification.requestPermission());
        await nbridge.notification.show({title: 'Nope', body: ''}).catch((e) => console.log(e.code));
      })();
      """, permissions: #"["app"]"#)
    try app.folder.write(
      "data/notification-pending.json",
      #"[{"id":"old","title":"Old","body":"","data":null,"actions":[],"at":0}]"#)
    let result = try app.run()
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "denied denied\npermission_denied\n")
    #expect(result.stderr == "", "no delivery, not even of a schedule left pending")
  }

  @Test func aRepeatingScheduleFiresOnceForAllItMissedThenKeepsItsRhythm() throws {
    let now = Int64(Date().timeIntervalSince1970 * 1000)
    let start = now - 210_000
    let app = try NotificationApp(
      """
      nbridge.notification.addListener('received', (r) => console.log('received ' + r.id + ' at ' + Date.parse(r.at)));
      setTimeout(async () => {
        const [pending] = await nbridge.notification.getPending();
        console.log('next ' + Date.parse(pending.at));
        await nbridge.notification.cancel({id: 'minutely'});
      }, 300);
      """)
    try app.folder.write(
      "data/notification-pending.json",
      #"[{"id":"minutely","title":"Tick","body":"","data":null,"actions":[],"at":\#(start),"every":60000}]"#)
    let result = try app.run()
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "received minutely at \(start + 180_000)\nnext \(start + 240_000)\n")
  }
}

/// Delivery to a real notification server: Xvfb, a private session bus and dunst.
@Suite(.serialized)
struct DesktopDeliveryTests {
  @Test func aClickComesBackAsTheDefaultActionAndCloseAsClosed() throws {
    let x = try XvfbServer()
    let bus = try SessionBus()
    let dunst = try DunstServer(display: x.display, bus: bus)
    let app = try NotificationApp(
      """
      const n = nbridge.notification;
      const keepRunning = setTimeout(() => console.log('gave up waiting'), 20000);
      n.addListener('action', (e) => console.log('action ' + e.id + ' ' + e.actionId));
      n.addListener('closed', (e) => {
        console.log('closed ' + e.id + ' ' + e.reason);
        clearTimeout(keepRunning);
      });
      n.show({title: 'Hello from nbridge', body: 'click me', id: 'hello', actions: [{id: 'later', title: 'Later'}]})
        .then(({id}) => console.log('shown ' + id));
      """)
    let run = try app.start(bus.environment.merging(["DISPLAY": x.display, "WAYLAND_DISPLAY": nil]) { $1 })
    defer { run.stop() }
    #expect(run.waitForOutput("shown hello\n"), "\(run.stderr)")
    #expect(try dunst.control(["count", "displayed"]) == "1")
    #expect(!run.stderr.contains("Hello from nbridge"), "went to the desktop, not stderr")

    try dunst.control(["action", "0"])
    #expect(run.waitForOutput("action hello default\n"), "\(run.stdout)")

    try dunst.control(["close-all"])
    #expect(run.waitForOutput("closed hello dismissed\n"), "\(run.stdout)")
    #expect(try dunst.control(["history"]).contains("\"Hello from nbridge\""))
    #expect(run.wait(timeout: 10) == 0, "\(run.stderr)")
  }

  @Test func cancelTakesTheNotificationOffTheDesktop() throws {
    let x = try XvfbServer()
    let bus = try SessionBus()
    let dunst = try DunstServer(display: x.display, bus: bus)
    let app = try NotificationApp(
      """
      const n = nbridge.notification;
      const closed = new Promise((resolve) => n.addListener('closed', resolve));
      (async () => {
        await n.show({title: 'Going soon', body: '', id: 'brief'});
        await n.show({title: 'Going soon', body: 'replaced in place', id: 'brief'});
        console.log('shown');
        setTimeout(async () => {
          await n.cancel({id: 'brief'});
          const event = await closed;
          console.log('closed ' + event.id + ' ' + event.reason);
        }, 500);
      })();
      """)
    let run = try app.start(bus.environment.merging(["DISPLAY": x.display]) { $1 })
    defer { run.stop() }
    #expect(run.waitForOutput("shown\n"), "\(run.stderr)")
    #expect(try dunst.control(["count", "displayed"]) == "1", "the second show replaced the first")
    #expect(run.wait(timeout: 20) == 0, "\(run.stderr)")
    #expect(run.stdout == "shown\nclosed brief closed\n")
    #expect(try dunst.control(["count", "displayed"]) == "0")
  }

  @Test func aServerThatVanishesFallsBackToStderrWithOneWarning() throws {
    let x = try XvfbServer()
    let bus = try SessionBus()
    let dunst = try DunstServer(display: x.display, bus: bus)
    let app = try NotificationApp(
      """
      const n = nbridge.notification;
      (async () => {
        await n.show({title: 'first', body: 'on the desktop'});
        console.log('first shown');
        setTimeout(async () => {
          await n.show({title: 'second', body: 'on stderr'});
          await n.show({title: 'third', body: 'on stderr'});
          const delivered = await n.getDelivered();
          console.log('delivered ' + delivered.map(r => r.title).join(','));
        }, 3000);
      })();
      """)
    let run = try app.start(bus.environment.merging(["DISPLAY": x.display]) { $1 })
    defer { run.stop() }
    #expect(run.waitForOutput("first shown\n"), "\(run.stderr)")
    dunst.stop()
    #expect(run.wait(timeout: 20) == 0, "\(run.stderr)")
    #expect(run.stdout.hasSuffix("delivered third,second,first\n"))
    #expect(!run.stderr.contains("notification [Notes] first"))
    #expect(run.stderr.contains("notification [Notes] second: on stderr\n"))
    #expect(run.stderr.contains("notification [Notes] third: on stderr\n"))
    #expect(run.stderr.components(separatedBy: "stopped answering").count == 2, "one warning: \(run.stderr)")
  }

  @Test func anUnreachableBusMeansStderrWithAWarning() throws {
    let app = try NotificationApp("nbridge.notification.show({title: 'Lost', body: 'no bus'});")
    let result = try app.run(["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/nbridge-test-bus"])
    #expect(result.status == 0)
    #expect(
      result.stderr.hasPrefix("nbridge: notification: cannot reach the session bus")
        && result.stderr.hasSuffix("notifications go to stderr\nnotification [Notes] Lost: no bus\n"),
      "\(result.stderr)")
  }

  @Test func aBusThatNeverAnswersIsGivenUpOnInsteadOfHanging() throws {
    let bus = try SessionBus()
    bus.signal(SIGSTOP)
    defer { bus.signal(SIGCONT) }
    let app = try NotificationApp("nbridge.notification.show({title: 'Stuck', body: 'bus stopped'});")
    let result = try app.run(bus.environment)
    #expect(result.status == 0)
    #expect(result.stderr.contains("no answer from \(bus.address) within 3000 ms"), "\(result.stderr)")
    #expect(result.stderr.hasSuffix("notification [Notes] Stuck: bus stopped\n"))
  }

  @Test func aBusWithoutANotificationServerMeansStderrWithoutAWarning() throws {
    let bus = try SessionBus()
    let app = try NotificationApp("nbridge.notification.show({title: 'Alone', body: 'no server'});")
    let result = try app.run(bus.environment)
    #expect(result.status == 0)
    #expect(result.stderr == "notification [Notes] Alone: no server\n")
  }
}
