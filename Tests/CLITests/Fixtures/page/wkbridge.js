await nbridge.preference.set('key1', 'value1');
const value = await nbridge.preference.get('key1', 'default');
const info = await nbridge.callToNative('app', 'appInfo', {});
let rejected;
try { await nbridge.callToNative('app', 'clearCache', {}); } catch (code) { rejected = code; }
return { value, id: info.id, rejected, nBridge: typeof nBridge };
