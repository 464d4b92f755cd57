export const log = [];
