await nbridge.pasteboard.create({ name: 'dev.nbridge.pagetest.watch' });
const seen = new Promise((resolve) => {
  const handle = nbridge.pasteboard.addListener('change', (event) => {
    if (event.name !== 'dev.nbridge.pagetest.watch') return;
    handle.remove();
    resolve(event);
  });
});
console.log('listening');
const event = await seen;
return { name: event.name, text: await nbridge.pasteboard.getString({ name: event.name }) };
