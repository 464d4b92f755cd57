await nbridge.storage.set({ key: 'beforeExit', value: 'kept' });
nbridge.app.exit({ code: 3 });
