export default (() => 6 * 7);
