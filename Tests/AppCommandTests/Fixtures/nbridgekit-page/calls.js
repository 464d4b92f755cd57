// NBridgeKit's request shapes through the page's nBridge, and one WKBridge post beside them.
const call = (service, action, option) => nbridge.callToNative(service, action, option || {});
const rejection = (promise) => promise.then((v) => ({ resolved: v }), (code) => ({ code }));
const utf8 = (b64) => new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
const out = { platform: nbridge.platform(), nBridgeType: typeof nBridge };
out.set = await call('preference', 'set', { key: 'greeting', value: 'héllo 안녕' });
out.getRaw = await call('preference', 'get', { key: 'greeting', defaultValue: 'none' });
out.get = utf8(out.getRaw);
out.getDefault = atob(await call('preference', 'get', { key: 'absent', defaultValue: 'fallback' }));
out.setBoolean = await call('preference', 'setBoolean', { key: 'flag', value: true });
out.getBoolean = await call('preference', 'getBoolean', { key: 'flag', defaultValue: false });
out.getBooleanDefault = await call('preference', 'getBoolean', { key: 'noFlag', defaultValue: true });
await call('preference', 'setInt', { key: 'count', value: -42 });
out.getInt = await call('preference', 'getInt', { key: 'count', defaultValue: 0 });
await call('preference', 'setLong', { key: 'big', value: 9007199254740991 });
out.getLong = await call('preference', 'getLong', { key: 'big', defaultValue: 0 });
out.intTooBig = await rejection(call('preference', 'setInt', { key: 'count', value: 2147483648 }));
out.intTooBigError = nbridge.errors['p' + (nbridge.next - 1)];
out.intOfBoolean = await rejection(call('preference', 'getInt', { key: 'flag', defaultValue: 0 }));
out.loneSurrogate = await rejection(call('preference', 'set', { key: 'a\ud800', value: 'x' }));
out.loneSurrogateError = nbridge.errors['p' + (nbridge.next - 1)];
out.remove = await call('preference', 'remove', { key: 'greeting' });
out.afterRemove = atob(await call('preference', 'get', { key: 'greeting', defaultValue: 'gone' }));
out.appId = (await call('app', 'appInfo')).id;
out.unknownAction = await rejection(call('app', 'noSuchAction'));
out.unknownService = await rejection(call('nosuch', 'thing'));
// WKBridge, beside nBridge, keeps WKBridgeKit's answers: the stored value as it is.
await call('preference', 'set', { key: 'plain', value: 'as is' });
out.wkBridge = await new Promise((resolve) => {
  nbridge.promises.wk = { resolve, reject: resolve };
  webkit.messageHandlers.WKBridge.postMessage(
    JSON.stringify({ service: 'preference', action: 'get', promiseId: 'wk', option: { key: 'plain' } }),
  );
});
return out;
