import NBridgePlugin

#if canImport(Glibc)
  import Glibc
#endif

/// `setMinimumFetchInterval`'s options.
struct IntervalOptions: Decodable, Sendable {
  /// `'never'`, `'minimum'` or seconds.
  var interval: JSONValue
}

/// `completeFetch`'s options.
struct CompleteOptions: Decodable, Sendable {
  /// The fetch's id, from the `fetch` event.
  var id: Int
  /// `'newData'`, `'noData'` or `'failed'`.
  var result: JSONValue
}

extension BackgroundPlugin {
  nonisolated static let fetchResult = Shape.oneOf([.literal("newData"), .literal("noData"), .literal("failed")])
  nonisolated static let fetchInterval = Shape.oneOf([.literal("never"), .literal("minimum"), .number])
  nonisolated static let fetchStatus = Shape.named(
    "BackgroundFetchStatus",
    .fields([
      "interval": .oneOf([.literal("never"), .number]), "nextFetchAt": Shape.string.orNull,
      "history?": .array(FetchHistoryEntry.shape),
    ]))

  /// Background fetch: the interval, the answer, the status.
  nonisolated static let fetchActions: [Action<BackgroundPlugin>] = [
    Action(
      "setMinimumFetchInterval", options: .fields(["interval": fetchInterval]), result: fetchStatus,
      summary:
        "How often the app wants a background fetch: 'never' (default), 'minimum' (600 s) or seconds (at least 600); kept across runs."
    ) { (plugin, options: IntervalOptions, _) in
      try plugin.fetches.setInterval(options.interval)
    },
    Action(
      "completeFetch", options: .fields(["id": .integer, "result": fetchResult]), result: .boolean,
      summary: "Answers a fetch; true when this answer ended it, false when an earlier one had (the first wins)."
    ) { (plugin, options: CompleteOptions, _) in
      try plugin.fetches.complete(id: options.id, result: FetchResult(option: options.result))
    },
    Action(
      "getFetchStatus", result: fetchStatus,
      summary: "The interval, when the next fetch is due, and the last 50 fetches (newest first)."
    ) { (plugin, _: NoOptions, _) in
      plugin.fetches.status()
    },
  ]

  /// The `fetch` event.
  nonisolated static let fetchEvents: [EventSpec] = [
    EventSpec(
      "fetch",
      payload: .named(
        "BackgroundFetchEvent",
        .fields(["id": .integer, "reason": .oneOf([.literal("schedule"), .literal("simulated")]), "deadline": .string])),
      summary:
        "Time to fetch: return (or resolve with) 'newData', 'noData' or 'failed', or call completeFetch, before the deadline.",
      answeredBy: "completeFetch"),
  ]

  /// Delivers the fetch this run was launched for, then ends the run once it is done and no task is open.
  func startLaunchFetch(_ launch: FetchLaunch) {
    let context = self.context
    let fetches = self.fetches
    _ = try? fetches.deliver(reason: launch.rawValue) { entry in
      if launch == .simulated {
        var line = FetchService.line(entry) + "\n"
        line.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }
      }
      fetches.whenNoTaskIsOpen { context.exit(code: 0) }
    }
  }
}
