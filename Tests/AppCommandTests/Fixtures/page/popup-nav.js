// A popup whose page goes from a to b; the test clicks the title bar's back button, which
// shows a again. Each page logs itself in storage when shown.
const log = async (length) => {
  for (let i = 0; i < 600; i++) {
    const value = (await nbridge.storage.get({ key: 'navLog' })) ?? [];
    if (value.length >= length) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return (await nbridge.storage.get({ key: 'navLog' })) ?? [];
};
await nbridge.app.openWindow({ url: location.origin + '/popup-a.html', title: 'Popup Nav' });
console.log('at ' + (await log(2)).join(','));
return { navLog: await log(3) };
