// A target=_blank link to a page of the app's origin, covering the page: the test clicks it, and
// the page it opens (in a popup window, with nbridge) writes storage that this script waits for.
const link = document.createElement('a');
link.href = location.origin + '/popup.html';
link.target = '_blank';
link.textContent = 'open';
link.style.cssText = 'position: fixed; inset: 0; display: block; background: #fff; z-index: 9999';
document.body.appendChild(link);
console.log('link ready');
let fromPopup = null;
for (let i = 0; i < 600 && fromPopup === null; i++) {
  await new Promise((resolve) => setTimeout(resolve, 50));
  fromPopup = await nbridge.storage.get({ key: 'fromPopup' });
}
return { fromPopup, location: location.href };
