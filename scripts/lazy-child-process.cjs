// Stands in for node:child_process inside commander in the CLI bundle. Commander requires it when it
// loads, only to run executable subcommands (`git-foo` style), which cairn has none of; loading it pulls
// in net, dgram and the stream modules, a millisecond or two of every `cairn` start. This loads the real
// module on first use, so commander behaves the same if it ever does spawn.
let real;
module.exports = new Proxy({}, {
  get: (_, key) => (real ??= require('node:child_process'))[key],
  has: (_, key) => key in (real ??= require('node:child_process')),
});
