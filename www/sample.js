// WKBridgeKit-style sample functions: one or more per built-in action a user tries first.
// index.js loads this file with `load('./sample.js')`, which evaluates it in the global scope,
// so each function below becomes a global, as it would in a web page's <script> tag.

function show(label, value) {
  console.log('  ' + label + ':', value);
  return value;
}

async function appAppInfo() {
  return show('app.appInfo', await nbridge.app.appInfo());
}

async function appDeviceInfo() {
  const info = await nbridge.app.deviceInfo();
  return show('app.deviceInfo', { platform: info.platform, osVersion: info.osVersion, arch: info.arch, language: info.language });
}

async function preferenceSet() {
  await nbridge.preference.set({ key: 'theme', value: { dark: true, accent: '#0a84ff' } });
  return show('preference.set', 'theme saved');
}

async function preferenceGet() {
  return show('preference.get', await nbridge.preference.get({ key: 'theme', defaultValue: null }));
}

async function preferenceRemove() {
  await nbridge.preference.remove({ key: 'theme' });
  return show('preference.remove', await nbridge.preference.get({ key: 'theme', defaultValue: 'gone' }));
}

async function pasteboardCopy(text) {
  await nbridge.pasteboard.setString({ string: text || 'Copied by the nbridge sample' });
  return show('pasteboard.setString', text || 'Copied by the nbridge sample');
}

async function pasteboardPaste() {
  return show('pasteboard.getString', await nbridge.pasteboard.getString());
}

async function notificationShow() {
  return show('notification.show', await nbridge.notification.show({ title: 'nbridge sample', body: 'Hello from a native notification' }));
}

async function notificationSchedule() {
  const scheduled = await nbridge.notification.schedule({ title: 'nbridge sample', body: 'Scheduled one second ago', after: 1000 });
  return show('notification.schedule', scheduled);
}

// WKBridgeKit's clearCache: in the window WebKit's caches and cookies, headless the runtime's
// own caches; resolves with what it cleared.
async function appClearCache() {
  return show('app.clearCache', await nbridge.app.clearCache());
}

// WKBridgeKit's locationCurrent: one position from GeoClue2, or why there is none (GeoClue not
// installed, no location agent, location turned off): the sample goes on either way.
async function locationCurrent() {
  try {
    const fix = await nbridge.location.current({ timeout: 5000, accuracy: 'city' });
    return show('location.current', fix.latitude.toFixed(3) + ', ' + fix.longitude.toFixed(3));
  } catch (error) {
    return show('location.current', 'none (' + error.code + ': ' + error.message + ')');
  }
}

// The "copy a word, get its meaning" app's words, stored on first launch (index.js and index.html).
const GLOSSARY = {
  retina: 'A display whose pixels are too small to see at a normal viewing distance.',
  webview: 'A view that renders web content inside a native app.',
  bridge: 'The layer that lets JavaScript call native code and get answers back.',
  promise: 'An object standing for a result that will arrive later.',
};

async function glossary() {
  let words = await nbridge.storage.get({ key: 'glossary', group: 'dictionary' });
  if (words === null) {
    words = GLOSSARY;
    await nbridge.storage.set({ key: 'glossary', value: words, group: 'dictionary' });
    console.log('  First launch: stored a glossary of ' + Object.keys(words).length + ' words.');
  }
  return words;
}

// Background fetch (iOS's "Background Fetch"): an app may ask to be woken about every ten minutes,
// even when it is not running, and each wake-up refreshes it: here it records when, in storage.
// `nbridge simulate fetch www` wakes the running app for one now, as Xcode's menu item does.
// `interval` ('minimum' or 'never') changes the schedule; null only shows it.
async function backgroundFetchSchedule(interval) {
  if (interval) {
    return show('background.setMinimumFetchInterval', await nbridge.background.setMinimumFetchInterval({ interval }));
  }
  const { interval: current, nextFetchAt } = await nbridge.background.getFetchStatus();
  return show('background.getFetchStatus', { interval: current, nextFetchAt });
}

async function backgroundRefresh({ id, reason }) {
  const refresh = { at: new Date().toISOString(), reason };
  await nbridge.storage.set({ key: 'lastRefresh', value: refresh, group: 'dictionary' });
  show('background fetch ' + id, refresh);
  return 'newData';
}

async function lastRefresh() {
  return await nbridge.storage.get({ key: 'lastRefresh', group: 'dictionary' });
}
