/// <reference path="./nbridge.d.ts" />
async function main(): Promise<void> {
  const info = await nbridge.app.appInfo();
  const count: number = info.launchCount;
  await nbridge.storage.set({ key: 'k', value: { a: [1, 'x', null] } });
  const v = await nbridge.storage.get({ key: 'k', defaultValue: 0 });
  const text: string | null = await nbridge.pasteboard.getString({});
  const h = nbridge.pasteboard.addListener('change', (c) => console.log(c.name, c.changeCount));
  h.remove();
  const { id } = await nbridge.notification.show({ title: 't', body: 'b' });
  const p = await nbridge.notification.checkPermission();
  const direct = await nbridge.callToNative('storage', 'keys', {});
  const launch = await nbridge.app.getLaunchUrl();
  const launchURL: string | undefined = launch?.url;
  nbridge.app.addListener('appUrlOpen', (open) => console.log(open.url, open.launch === true));
  const claimed: boolean = await nbridge.app.canOpenURL({ url: 'dbuurl://localhost/data' });
  const { completed } = await nbridge.app.openURL({ url: 'dbuurl://localhost/data' });
  console.log(launchURL, claimed, completed === true);
  await nbridge.tray.create({ icon: 'icon.png', menu: [{ label: 'More', submenu: [{ id: 'a', label: 'A', checked: true }] }] });
  nbridge.tray.addListener('click', (click) => console.log(click.x, click.button === 'left'));
  console.log(count, v, text, id, p, direct, nbridge.platform(), nbridge.args.length);
}
main();
