// Seed 002's sender: put text on a named pasteboard, then open the receiver's URL.
// nbridge run examples/url-handoff/sender/index.js -- "some text"
const name = 'kr.pe.davidbae.dbuurl.pasteboard_001';
const url = 'dbuurl://localhost/data';
const payload = nbridge.args[0] ?? `hello from the sender, ${new Date().toISOString()}`;

if (await nbridge.app.canOpenURL({ url })) {
  await nbridge.pasteboard.create({ name });
  await nbridge.pasteboard.setString({ name, string: payload });
  const { completed } = await nbridge.app.openURL({ url });
  console.log(completed ? `sent ${JSON.stringify(payload)}` : 'the receiver did not take the URL');
} else {
  console.log('nothing opens dbuurl: URLs; run: nbridge install examples/url-handoff/receiver');
}
