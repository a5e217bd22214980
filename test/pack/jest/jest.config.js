// Jest 30 running the tests as ES modules: `npm test` starts Node with --experimental-vm-modules.
// That is what lets a test import msw 2.12+, @openrouter/sdk and @faker-js/faker 10, which are ES
// modules only (or depend on some), on Node 20 and 22. TypeScript: see the README's Jest section.

/** @type {import('jest').Config} */
export default {
  // msw/node intercepts Node's own fetch and http: use the node environment (Jest's default), not jsdom.
  testEnvironment: 'node',
  // The tests are plain ES modules: nothing to compile, so skip babel-jest.
  transform: {},
}
