// The sample app's window (`nbridge app www/`): the same sample.js functions as index.js, with
// a face. The glossary comes from storage, the launch count from app.appInfo, and a word
// copied anywhere on the desktop shows its meaning (pasteboard change listener).
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
for (const [label, call] of Object.entries(calls)) {
  const button = document.createElement('button');
  button.textContent = label;
  button.onclick = () => call().catch((e) => show(label + ' failed', e.code + ': ' + e.message));
  $('buttons').appendChild(button);
}

async function start() {
  const info = await nbridge.app.appInfo();
  const days = info.daysSinceFirstLaunch;
  $('welcome').textContent = info.name + ' ' + info.version + ' · launch #' + info.launchCount + ' · ' + days +
    ' day' + (days === 1 ? '' : 's') + ' since the first one';
  const words = await glossary();
  for (const [word, meaning] of Object.entries(words)) {
    const dt = document.createElement('dt');
    dt.textContent = word;
    const dd = document.createElement('dd');
    dd.textContent = meaning;
    $('glossary').append(dt, dd);
  }
  nbridge.pasteboard.addListener('change', async (change) => {
    if (change.name !== null) return;
    const text = ((await nbridge.pasteboard.getString()) || '').trim();
    const meaning = words[text.toLowerCase()];
    $('copied').textContent = meaning ? text + ': ' + meaning : '"' + text.slice(0, 40) + '" is not in the glossary.';
    if (meaning) await nbridge.notification.show({ title: text, body: meaning, data: { word: text } });
  });
  $('log').textContent = 'Ready. Each button calls one plugin action through nbridge.\n';
}
// A background fetch while the window is open (`nbridge simulate fetch www`, or the schedule
// index.js sets) reaches this page; when the window is closed the wake-up runs index.js.
nbridge.background.addListener('fetch', backgroundRefresh);
window.ready = start();
