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
