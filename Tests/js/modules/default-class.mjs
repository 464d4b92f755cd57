export default class {
  hello() {
    return 'hi';
  }
}
