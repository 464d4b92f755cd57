// Seed 002's receiver: registered for dbuurl: (nbridge install), it reads the named pasteboard
// once and clears it. It keeps running while it listens; `nbridge open` hands it later URLs.
const name = 'kr.pe.davidbae.dbuurl.pasteboard_001';

nbridge.app.addListener('appUrlOpen', async ({ url, launch }) => {
  if (!url.startsWith('dbuurl://localhost/data')) return;
  let text;
  try {
    text = await nbridge.pasteboard.getString({ name }); // not_found if never created
  } catch (error) {
    if (error.code !== 'not_found') throw error;
    return console.log('no data: the pasteboard was never created');
  }
  await nbridge.pasteboard.clear({ name }); // read once, as the seed does
  console.log(`received ${JSON.stringify(text)}${launch ? ' (it launched the receiver)' : ''}`);
});
console.log('receiver ready');
