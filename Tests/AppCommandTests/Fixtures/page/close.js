await nbridge.storage.set({ key: 'beforeClose', value: 'kept too' });
window.close();
