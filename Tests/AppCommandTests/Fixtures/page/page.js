// A page that calls every built-in service through nbridge and shows what came back.
console.log('page.js loaded, platform', nbridge.platform(), 'args', nbridge.args);
window.results = (async () => {
  const out = {};
  out.appInfo = await nbridge.app.appInfo();
  await nbridge.storage.set({ key: 'fromPage', value: { n: 1, list: ['a', 'b'] } });
  out.stored = await nbridge.storage.get({ key: 'fromPage' });
  await nbridge.preference.set({ key: 'pref', value: 'yes' });
  out.pref = await nbridge.preference.get({ key: 'pref', defaultValue: 'no' });
  await nbridge.pasteboard.create({ name: 'dev.nbridge.pagetest.board' });
  await nbridge.pasteboard.setString({ name: 'dev.nbridge.pagetest.board', string: 'copied in a page' });
  out.pasted = await nbridge.pasteboard.getString({ name: 'dev.nbridge.pagetest.board' });
  out.shown = (await nbridge.notification.show({ title: 'From a page', body: 'hello' })).id.length > 0;
  try {
    await nbridge.storage.set({ key: '' });
  } catch (e) {
    out.error = { name: e.name, code: e.code, message: e.message };
  }
  try {
    await nbridge.nosuch.thing();
  } catch (e) {
    out.unknownService = e.code;
  }
  out.echo = await nbridge.callToNative('app', 'appInfo', {}).then((r) => r.id);
  document.getElementById('status').textContent = 'launch ' + out.appInfo.launchCount + ', stored ' + JSON.stringify(out.stored);
  return out;
})();
