export const pad = (s) => '  ' + s;
