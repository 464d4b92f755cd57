import CJavaScriptCore
import Foundation

/// The raw JavaScriptCore C-API floor and the JSON-string protocol, both in-process on this thread.
///
/// The script drives its own loop (`for (...) await f(x)`); native code queues work while the
/// script runs, and after each outermost API call (where JSC drains microtasks) drains the queue.
enum JSCFloor {
  /// Work queued by the native functions: resolve functions with their value, or JSON messages.
  nonisolated(unsafe) static var resolves: [(JSObjectRef, JSValueRef)] = []
  nonisolated(unsafe) static var messages: [String] = []

  /// µs per `await f(x)`, where `f` returns a deferred promise resolved by the loop with `x`.
  static func floorRoundTrip(calls: Int, rounds: Int) -> [Double] {
    let ctx = JSGlobalContextCreate(nil)!
    defer { JSGlobalContextRelease(ctx) }
    define(ctx, "f") { ctx, _, _, count, arguments, _ in
      var resolve: JSObjectRef?
      var reject: JSObjectRef?
      let promise = JSObjectMakeDeferredPromise(ctx, &resolve, &reject, nil)
      let value = count > 0 ? arguments![0]! : JSValueMakeUndefined(ctx)!
      JSValueProtect(ctx, resolve)
      JSValueProtect(ctx, value)
      JSCFloor.resolves.append((resolve!, value))
      return promise
    }
    let script = """
      globalThis.results = [];
      (async () => {
        for (let i = 0; i < \(calls / 5); i++) await f(i);
        for (let r = 0; r < \(rounds); r++) {
          const start = Date.now();
          for (let i = 0; i < \(calls); i++) await f(i);
          results.push((Date.now() - start) * 1000 / \(calls));
        }
      })();
      """
    evaluate(ctx, script)
    while !resolves.isEmpty {
      let batch = resolves
      resolves.removeAll(keepingCapacity: true)
      for (resolve, value) in batch {
        var arguments: [JSValueRef?] = [value]
        JSObjectCallAsFunction(ctx, resolve, nil, 1, &arguments, nil)
        JSValueUnprotect(ctx, resolve)
        JSValueUnprotect(ctx, value)
      }
    }
    return numbers(ctx, "results")
  }

  /// µs per call through a WKBridgeKit-style JSON-string protocol: the script stringifies
  /// `{service, action, promiseId, option}`; native parses it with `JSONSerialization` and
  /// resolves by evaluating a fresh `nbridge.resolvePromise("<id>", <json>, null)`.
  static func jsonEvalRoundTrip(calls: Int, rounds: Int) -> [Double] {
    let ctx = JSGlobalContextCreate(nil)!
    defer { JSGlobalContextRelease(ctx) }
    define(ctx, "postMessage") { ctx, _, _, count, arguments, _ in
      if count > 0, let string = JSValueToStringCopy(ctx, arguments![0], nil) {
        JSCFloor.messages.append(JSCFloor.swiftString(string))
        JSStringRelease(string)
      }
      return JSValueMakeUndefined(ctx)
    }
    let script = """
      var nbridge = {
        promises: {},
        resolvePromise(promiseId, data, error) {
          const entry = this.promises[promiseId];
          delete this.promises[promiseId];
          if (error) entry.reject(new Error(error)); else entry.resolve(data);
        },
        call(service, action, option) {
          return new Promise((resolve, reject) => {
            const promiseId = 'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'.replace(/[xy]/g, (c) => {
              const r = (Math.random() * 16) | 0;
              return (c === 'x' ? r : (r & 0x3) | 0x8).toString(16);
            });
            this.promises[promiseId] = { resolve, reject };
            postMessage(JSON.stringify({ service, action, promiseId, option }));
          });
        },
      };
      globalThis.results = [];
      (async () => {
        for (let i = 0; i < \(calls / 5); i++) await nbridge.call('echo', 'echo', { key: 'k', value: 'v' });
        for (let r = 0; r < \(rounds); r++) {
          const start = Date.now();
          for (let i = 0; i < \(calls); i++) await nbridge.call('echo', 'echo', { key: 'k', value: 'v' });
          results.push((Date.now() - start) * 1000 / \(calls));
        }
      })();
      """
    evaluate(ctx, script)
    while !messages.isEmpty {
      let batch = messages
      messages.removeAll(keepingCapacity: true)
      for message in batch {
        guard let object = try? JSONSerialization.jsonObject(with: Data(message.utf8)) as? [String: Any],
          let promiseId = object["promiseId"] as? String
        else { fatalError("bad message \(message)") }
        let option = object["option"] ?? NSNull()
        let data = try! JSONSerialization.data(withJSONObject: option, options: [.fragmentsAllowed])
        let json = String(decoding: data, as: UTF8.self)
        evaluate(ctx, "nbridge.resolvePromise(\"\(promiseId)\", \(json), null)")
      }
    }
    return numbers(ctx, "results")
  }

  static func define(_ ctx: JSGlobalContextRef, _ name: String, _ callback: JSObjectCallAsFunctionCallback) {
    let jsName = JSStringCreateWithUTF8CString(name)
    defer { JSStringRelease(jsName) }
    let function = JSObjectMakeFunctionWithCallback(ctx, jsName, callback)
    JSObjectSetProperty(ctx, JSContextGetGlobalObject(ctx), jsName, function, 0, nil)
  }

  static func evaluate(_ ctx: JSGlobalContextRef, _ source: String) {
    let script = JSStringCreateWithUTF8CString(source)
    defer { JSStringRelease(script) }
    var exception: JSValueRef?
    JSEvaluateScript(ctx, script, nil, nil, 1, &exception)
    if let exception, let text = JSValueToStringCopy(ctx, exception, nil) {
      fatalError("JS error: \(swiftString(text))")
    }
  }

  static func numbers(_ ctx: JSGlobalContextRef, _ global: String) -> [Double] {
    let script = JSStringCreateWithUTF8CString("JSON.stringify(\(global))")
    defer { JSStringRelease(script) }
    let value = JSEvaluateScript(ctx, script, nil, nil, 1, nil)
    let text = swiftString(JSValueToStringCopy(ctx, value, nil)!)
    return (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [Double]) ?? []
  }

  static func swiftString(_ string: JSStringRef) -> String {
    let size = JSStringGetMaximumUTF8CStringSize(string)
    var buffer = [CChar](repeating: 0, count: size)
    JSStringGetUTF8CString(string, &buffer, size)
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
