import Foundation

/// Waits for what a test stands for: polls `condition` until it holds or `timeout` seconds pass,
/// and returns whether it held. Tests order events with this (or a line they wait for), never
/// with a fixed sleep.
public func waitUntil(timeout: Double = 30, _ condition: () throws -> Bool) rethrows -> Bool {
  let deadline = Date().addingTimeInterval(timeout)
  while Date() < deadline {
    if try condition() { return true }
    usleep(10_000)
  }
  return try condition()
}

/// `waitUntil` for a test body that runs on the loop's thread (`NBridgeTest.onLoop`) or on another
/// actor: it sleeps between looks instead of blocking the thread, so the loop goes on running
/// what the condition waits for; `condition` runs on the caller's actor.
public func waitLettingTheLoopRun(
  timeout: Double = 30, isolation: isolated (any Actor)? = #isolation, _ condition: () throws -> Bool
) async rethrows -> Bool {
  let deadline = Date().addingTimeInterval(timeout)
  while Date() < deadline {
    if try condition() { return true }
    try? await Task.sleep(for: .milliseconds(1))
  }
  return try condition()
}
