// The sample app `make run` starts: first the sample calls of every plugin, then the
// "copy a word, get its meaning" app. Headless it copies a word itself and ends by itself;
// `nbridge run www/index.js -- --watch` keeps watching the clipboard until Ctrl-C. With
// `-- --schedule-fetch` it asks to be woken for a background fetch about every ten minutes, even
// when not running (`-- --no-fetch` stops that): a run woken for one (`nbridge run --fetch`)
// starts in background, answers it and ends. Where the desktop has a tray (a session bus with a
// StatusNotifierWatcher) it shows an icon whose menu has "Show", "Last word" and "Quit"; with a
// display, Ctrl+Alt+M shows the meaning of the word on the clipboard. Without them it says why
// and goes on.
load('./sample.js');

const watchMode = nbridge.args.includes('--watch');
nbridge.background.addListener('fetch', backgroundRefresh);

async function greet() {
  const info = await nbridge.app.appInfo();
  const days = info.daysSinceFirstLaunch;
  console.log(
    '  Welcome to ' + info.name + ' ' + info.version + ': launch #' + info.launchCount +
      ', ' + days + ' day' + (days === 1 ? '' : 's') + ' since the first one.',
  );
  if (info.launchCount >= 10 && days >= 5) {
    console.log('  You have used the app ' + info.launchCount + ' times. Enjoying it? Please rate it!');
  } else if (info.launchCount >= 10) {
    console.log(
      '  Launch #' + info.launchCount + ': thanks for coming back! (We ask for a rating after 5 days and 10 runs.)',
    );
  }
}

async function tellMeaning(words, text) {
  const { word, meaning } = lookUp(words, text);
  console.log(meaning ? '  ' + word + ' -> ' + meaning : '  "' + word.slice(0, 40) + '" is not in the glossary.');
  if (meaning) await nbridge.notification.show({ title: word, body: meaning, data: { word } }).catch(() => {});
}

// The tray icon and the shortcut; headless there is no window to show.
async function reachable(words) {
  const tray = await trayCreate({
    show: () => console.log('  Show: this run has no window (nbridge app www/ has one).'),
    lastWord: () => lastLookup ? tellMeaning(words, lastLookup.word) : console.log('  No word looked up yet.'),
    quit: () => nbridge.app.exit(),
  });
  await shortcutRegister(async () => tellMeaning(words, await nbridge.pasteboard.getString()));
  return tray;
}

function watchClipboard(words) {
  return new Promise((resolve) => {
    let timer;
    const finish = () => {
      clearTimeout(timer);
      handle.remove();
      resolve();
    };
    const handle = nbridge.pasteboard.addListener('change', async (change) => {
      if (change.name !== null) return;
      const { word: text, meaning } = lookUp(words, await nbridge.pasteboard.getString());
      if (!meaning) {
        if (watchMode) console.log('  Copied "' + text.slice(0, 40) + '": not in the glossary.');
        return;
      }
      await nbridge.notification.show({ title: text, body: meaning, data: { word: text } });
      console.log('  Copied "' + text + '" -> ' + meaning);
      if (!watchMode) finish();
    });
    if (!watchMode) timer = setTimeout(finish, 10000);
  });
}

(async () => {
  // Woken for a background fetch: the listener above answers it, and the run ends with it.
  if ((await nbridge.app.getState()).state === 'background') return;
  console.log('nbridge sample app\n\n1. The sample calls (www/sample.js):');
  await appAppInfo();
  await appDeviceInfo();
  await preferenceSet();
  await preferenceGet();
  await preferenceRemove();
  await pasteboardCopy('Copied by the nbridge sample');
  await pasteboardPaste();
  await notificationShow();
  await notificationSchedule();
  await locationCurrent();
  await appClearCache();
  const schedule = nbridge.args.includes('--schedule-fetch')
    ? 'minimum'
    : nbridge.args.includes('--no-fetch')
    ? 'never'
    : null;
  await backgroundFetchSchedule(schedule);

  console.log('\n2. Copy a word, get its meaning:');
  const words = await glossary();
  await greet();
  const refresh = await lastRefresh();
  console.log(
    refresh
      ? '  Last background refresh: ' + refresh.at + ' (' + refresh.reason + ').'
      : '  No background refresh yet.',
  );
  const tray = await reachable(words);
  const watching = watchClipboard(words);
  if (watchMode) {
    console.log('  Watching the clipboard. Copy one of: ' + Object.keys(words).join(', ') + '. Ctrl-C to stop.');
    console.log('  Meanwhile `nbridge simulate fetch www` wakes it for a background fetch.');
  } else {
    console.log('  Copying "Retina" to show how it works...');
    await nbridge.pasteboard.setString({ string: 'Retina' });
  }
  await watching;
  if (!watchMode) {
    if (tray) await nbridge.tray.remove();
    await nbridge.shortcut.unregister({ accelerator: SHORTCUT });
  }
  console.log(
    '\nDone. Try: nbridge run www/index.js -- --watch   (then copy "webview" anywhere, or: nbridge simulate fetch www)',
  );
})();
