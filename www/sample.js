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
  return show('app.deviceInfo', {
    platform: info.platform,
    osVersion: info.osVersion,
    arch: info.arch,
    language: info.language,
  });
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
  return show(
    'notification.show',
    await nbridge.notification.show({ title: 'nbridge sample', body: 'Hello from a native notification' }),
  );
}

async function notificationSchedule() {
  const scheduled = await nbridge.notification.schedule({
    title: 'nbridge sample',
    body: 'Scheduled one second ago',
    after: 1000,
  });
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

// Glossary files: one "word: meaning" a line; blank lines and lines starting with # are skipped.
// "Export..." writes this format, and "Open a glossary file..." reads it back.
function parseGlossary(text) {
  const words = {};
  for (const line of text.split('\n')) {
    const entry = line.trim();
    const colon = entry.indexOf(':');
    if (entry.startsWith('#') || colon <= 0) continue;
    const word = entry.slice(0, colon).trim().toLowerCase();
    const meaning = entry.slice(colon + 1).trim();
    if (word && meaning) words[word] = meaning;
  }
  return words;
}

function formatGlossary(words) {
  return Object.keys(words).sort().map((word) => word + ': ' + words[word] + '\n').join('');
}

// "Open a glossary file...": dialog.open lets the user pick a file (which lets fs read it), its
// words join the stored glossary. Resolves with the glossary, or null when the user cancelled.
async function glossaryOpen(words) {
  const path = await nbridge.dialog.open({
    title: 'Open a glossary file',
    filters: [{ name: 'Glossary (word: meaning)', extensions: ['txt'] }, { name: 'Every file', extensions: ['*'] }],
  });
  if (path === null) return show('dialog.open', 'cancelled'), null;
  const found = parseGlossary(await nbridge.fs.readTextFile({ path }));
  Object.assign(words, found);
  await nbridge.storage.set({ key: 'glossary', value: words, group: 'dictionary' });
  show('fs.readTextFile', Object.keys(found).length + ' words from ' + path);
  return words;
}

// "Export...": dialog.save asks where, fs.writeTextFile writes the glossary there (at once: a
// crash leaves the old file or the new one). Resolves with the path, or null when cancelled.
async function glossaryExport(words) {
  const path = await nbridge.dialog.save({
    title: 'Export the glossary',
    filters: [{ name: 'Glossary (word: meaning)', extensions: ['txt'] }],
  });
  if (path === null) return show('dialog.save', 'cancelled'), null;
  await nbridge.fs.writeTextFile({ path, contents: formatGlossary(words) });
  show('fs.writeTextFile', Object.keys(words).length + ' words to ' + path);
  return path;
}

// The last word looked up (copied, or asked for with the shortcut), for the tray's "Last word".
let lastLookup = null;

// The meaning of `text` in `words`: {word, meaning}, meaning null when the glossary lacks it.
function lookUp(words, text) {
  const word = (text || '').trim();
  const meaning = words[word.toLowerCase()] || null;
  if (meaning) lastLookup = { word, meaning };
  return { word, meaning };
}

// The tray icon: "Show", "Last word" and "Quit" (`handlers` has a function for each item id:
// show, lastWord, quit). Resolves true once it shows; false, saying why, where there is no tray
// (no session bus, or a desktop without a StatusNotifierWatcher): the app works on without it.
async function trayCreate(handlers) {
  nbridge.tray.addListener('menuItem', ({ id }) => handlers[id]?.());
  nbridge.tray.addListener('click', () => handlers.show());
  try {
    await nbridge.tray.create({
      icon: 'icon.svg',
      tooltip: 'nbridge Sample: copy a word, get its meaning',
      menu: [
        { id: 'show', label: 'Show' },
        { id: 'lastWord', label: 'Last word' },
        { type: 'separator' },
        { id: 'quit', label: 'Quit' },
      ],
    });
    show('tray.create', 'Show, Last word, Quit');
    return true;
  } catch (error) {
    show('tray.create', 'no tray icon (' + error.code + ': ' + error.message + ')');
    return false;
  }
}

// The global shortcut: Ctrl+Alt+M ("meaning") calls `pressed` while any program has the focus.
// Says when it is held, or why there is none (no display, a Wayland desktop without the
// GlobalShortcuts portal, another program holding the keys): the app works on without it. A
// Wayland desktop may ask the user first: isRegistered answers once it has.
const SHORTCUT = 'Ctrl+Alt+M';
async function shortcutRegister(pressed) {
  nbridge.shortcut.register({ accelerator: SHORTCUT, retainCallback: pressed }).then(
    () => show('shortcut.register', SHORTCUT + ' released'),
    (error) => show('shortcut.register', 'no ' + SHORTCUT + ' (' + error.code + ': ' + error.message + ')'),
  );
  const held = await nbridge.shortcut.isRegistered({ accelerator: SHORTCUT });
  if (held) show('shortcut.register', SHORTCUT + ' shows the meaning of the copied word');
  return held;
}
