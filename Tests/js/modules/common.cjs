module.exports = { answer: 42, greet: (n) => 'hello ' + n };
