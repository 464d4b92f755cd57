// A CommonJS file that throws while it loads, and counts how often it ran.
globalThis.throwsRuns = (globalThis.throwsRuns || 0) + 1;
throw new Error('boom ' + globalThis.throwsRuns);
