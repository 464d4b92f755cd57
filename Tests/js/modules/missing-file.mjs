import './no-such-file.mjs';
