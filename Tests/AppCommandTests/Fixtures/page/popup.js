// Popup windows: one of the app's origin (its page writes storage through nbridge), one of
// another origin (a local server, port in nbridge.args; its calls do no work). The test closes
// the foreign one with its title bar's close button; this script closes the other.
const closed = [];
let onClosed = () => {};
nbridge.app.addListener('windowClosed', (event) => {
  closed.push(event.id);
  onClosed();
});
const nextClose = () => new Promise((resolve) => (onClosed = resolve));

const own = await nbridge.app.openWindow({ url: location.origin + '/popup.html', title: 'Popup Own' });
let fromPopup = null;
for (let i = 0; i < 400 && fromPopup === null; i++) {
  await new Promise((resolve) => setTimeout(resolve, 50));
  fromPopup = await nbridge.storage.get({ key: 'fromPopup' });
}
const foreign = await nbridge.app.openWindow({
  url: 'http://127.0.0.1:' + nbridge.args[0] + '/popup-foreign.html',
  title: 'Popup Foreign',
  navigation: false,
});
console.log('opened ' + own.id + ' ' + foreign.id);
await nextClose();
const userClosed = closed.slice();
let closing = nextClose();
await nbridge.app.closeWindow({ id: own.id });
await closing;
const again = await nbridge.app.closeWindow({ id: own.id }).catch((e) => e.code);
const badUrl = await nbridge.app.openWindow({ url: 'file:///etc/passwd' }).catch((e) => e.code);
return { own: own.id, foreign: foreign.id, fromPopup, userClosed, closed, again, badUrl };
