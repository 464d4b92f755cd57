// Exports named like Object.prototype's methods: one that changes, beside constants.
export let valueOf = 1;
export const toStringTag = 'own';
export function bumpValueOf() {
  valueOf += 1;
}
