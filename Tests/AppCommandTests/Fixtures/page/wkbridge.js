await nbridge.preference.set('key1', 'value1');
const value = await nbridge.preference.get('key1', 'default');
const info = await nbridge.callToNative('app', 'appInfo', {});
let rejected;
try { await nbridge.callToNative('app', 'noSuchAction', {}); } catch (code) { rejected = code; }
// WKBridgeKit's sample page's "clear cache" button.
const cleared = await nbridge.callToNative('app', 'clearCache', {});
return { value, id: info.id, rejected, cleared, nBridge: typeof nBridge };
