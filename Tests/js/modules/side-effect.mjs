globalThis.sideEffects = (globalThis.sideEffects || 0) + 1;
