// The sample app's window (`nbridge app www/`): the same sample.js functions as index.js, with
// a face. The glossary comes from storage (and glossary files the user opens), the launch count
// from app.appInfo, and a word copied anywhere on the desktop shows its meaning (pasteboard
// change listener), as does Ctrl+Alt+M with a word on the clipboard (shortcut). A tray icon
// shows the window, the last word or quits; with it, closing the window hides it in the tray.
const $ = (id) => document.getElementById(id);

// sample.js's functions report through show(): also write what they return into the log.
window.show = function (label, value) {
  console.log('  ' + label + ':', value);
  $('log').textContent += label + ': ' + JSON.stringify(value) + '\n';
  return value;
};

const calls = {
  'app.appInfo': appAppInfo,
  'app.deviceInfo': appDeviceInfo,
  'preference.set': preferenceSet,
  'preference.get': preferenceGet,
  'preference.remove': preferenceRemove,
  'pasteboard.setString': () => pasteboardCopy('Retina'),
  'pasteboard.getString': pasteboardPaste,
  'notification.show': notificationShow,
  'notification.schedule': notificationSchedule,
  'location.current': locationCurrent,
  'clear cache': appClearCache,
};
for (const [label, call] of Object.entries(calls)) button($('buttons'), label, call);

let words = {};

function renderGlossary() {
  $('glossary').replaceChildren();
  for (const [word, meaning] of Object.entries(words)) {
    const dt = document.createElement('dt');
    dt.textContent = word;
    const dd = document.createElement('dd');
    dd.textContent = meaning;
    $('glossary').append(dt, dd);
  }
}

// Shows the meaning of `text` (how: what asked for it) in the page, and as a notification.
function showMeaning(how, text) {
  const { word, meaning } = lookUp(words, text);
  $('copied').textContent = how + word + (meaning ? ': ' + meaning : ' is not in the glossary.');
  if (meaning) nbridge.notification.show({ title: word, body: meaning, data: { word } }).catch(() => {});
}

// A failed call of a button shows in the log (dialog, fs: a file the app may not read...).
function button(parent, label, call) {
  const element = document.createElement('button');
  element.textContent = label;
  element.onclick = () => call().catch((e) => show(label + ' failed', e.code + ': ' + e.message));
  parent.appendChild(element);
}

button($('files'), 'Open a glossary file...', async () => {
  const opened = await glossaryOpen(words);
  if (opened) renderGlossary();
});
button($('files'), 'Export...', () => glossaryExport(words));

async function start() {
  const info = await nbridge.app.appInfo();
  const days = info.daysSinceFirstLaunch;
  $('welcome').textContent = info.name + ' ' + info.version + ' · launch #' + info.launchCount + ' · ' + days +
    ' day' + (days === 1 ? '' : 's') + ' since the first one';
  words = await glossary();
  renderGlossary();
  nbridge.pasteboard.addListener('change', async (change) => {
    if (change.name !== null) return;
    showMeaning('', (await nbridge.pasteboard.getString()) || '');
  });
  $('log').textContent = 'Ready. Each button calls one plugin action through nbridge.\n';
  const inTray = await trayCreate({
    show: () => nbridge.window.show().catch((e) => show('window.show failed', e.code + ': ' + e.message)),
    lastWord: () => {
      if (lastLookup) showMeaning('Last word · ', lastLookup.word);
      else $('copied').textContent = 'No word looked up yet.';
      return nbridge.window.show().catch(() => {});
    },
    quit: () => nbridge.app.exit(),
  });
  // With a tray icon, closing the window hides it: the app stays reachable from the icon.
  if (inTray) {
    nbridge.window.addListener('closeRequested', ({ id }) => {
      if (id !== 'main') return;
      nbridge.window.hide().catch(() => {});
      return false;
    });
  }
  shortcutRegister(async () => showMeaning(SHORTCUT + ' · ', (await nbridge.pasteboard.getString()) || ''));
}
// A background fetch while the window is open (`nbridge simulate fetch www`, or the schedule
// index.js sets) reaches this page; when the window is closed the wake-up runs index.js.
nbridge.background.addListener('fetch', backgroundRefresh);
window.ready = start();
