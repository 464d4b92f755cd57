export { h } from 'preact';
